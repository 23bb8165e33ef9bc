/**
 * Closed-loop load of streamed requests with an undici pool: `connections` workers each open a
 * stream, read it to the end and open the next. Per request it records the time to the first body
 * byte (the first SSE frame) and the time to the end of the stream; a stream counts as successful
 * only with status 200 and a final `data: [DONE]`.
 */
import { performance } from 'node:perf_hooks';
import { Pool } from 'undici';
import { summarizeLatencies, percentile } from './latency-summary.js';

const DONE = Buffer.from('[DONE]');

async function streamOnce(pool, request) {
  const startedAt = performance.now();
  const response = await pool.request(request);
  let firstByteAt;
  let previous = Buffer.alloc(0);
  let last = Buffer.alloc(0);
  for await (const chunk of response.body) {
    firstByteAt ??= performance.now();
    previous = last;
    last = chunk;
  }
  const endedAt = performance.now();
  const done = Buffer.concat([previous, last]).includes(DONE);
  const ok = response.statusCode === 200 && done && firstByteAt !== undefined;
  return { ok, endedAt, total: endedAt - startedAt, firstByte: (firstByteAt ?? endedAt) - startedAt };
}

/**
 * @param {{ url: string, headers: Record<string, string>, body: string, connections: number, seconds: number }} options
 * @returns {Promise<{ count: number, rps: number, p50: number, p99: number, ttfbP50: number, ttfbP99: number, errors: number }>}
 */
export async function measureStreams(options) {
  const { origin, pathname } = new URL(options.url);
  const pool = new Pool(origin, { connections: options.connections, keepAliveTimeout: 30_000 });
  const request = { path: pathname, method: 'POST', headers: { ...options.headers, 'content-type': 'application/json' }, body: options.body };
  const totals = [];
  const firstBytes = [];
  let errors = 0;
  const deadline = performance.now() + options.seconds * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const outcome = await streamOnce(pool, request).catch(() => undefined);
      if (!outcome?.ok) errors += 1;
      else if (outcome.endedAt <= deadline) {
        totals.push(outcome.total);
        firstBytes.push(outcome.firstByte);
      }
    }
  };
  await Promise.all(Array.from({ length: options.connections }, worker));
  await pool.close();
  const sortedFirstBytes = Float64Array.from(firstBytes).sort();
  return {
    ...summarizeLatencies(totals, options.seconds),
    ttfbP50: percentile(sortedFirstBytes, 0.5),
    ttfbP99: percentile(sortedFirstBytes, 0.99),
    errors,
  };
}
