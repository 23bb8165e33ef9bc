/**
 * Closed-loop load of non-streamed requests with autocannon: `connections` clients each sending
 * the next request as soon as the previous reply is complete. Latencies are taken from every
 * response at full precision (autocannon's own histogram rounds to whole milliseconds).
 */
import autocannon from 'autocannon';
import { summarizeLatencies } from './latency-summary.js';

/**
 * @param {{ url: string, headers: Record<string, string>, body?: string, method?: string, connections: number, seconds: number }} options
 * @returns {Promise<{ count: number, rps: number, p50: number, p99: number, errors: number }>}
 */
export async function measureReplies(options) {
  const latencies = [];
  const instance = autocannon({
    url: options.url,
    method: options.method ?? 'POST',
    headers: options.body === undefined ? options.headers : { ...options.headers, 'content-type': 'application/json' },
    ...(options.body === undefined ? {} : { body: options.body }),
    connections: options.connections,
    duration: options.seconds,
  });
  instance.on('response', (_client, statusCode, _bytes, responseTime) => {
    if (statusCode === 200) latencies.push(responseTime);
  });
  const result = await instance;
  const errors = result.errors + result.timeouts + result.non2xx;
  return { ...summarizeLatencies(latencies, result.duration), errors };
}
