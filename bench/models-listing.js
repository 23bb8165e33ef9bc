/**
 * `node bench/models-listing.js`: the catalogue reads over a generated catalogue of 2,000 models × 3
 * endpoints (BENCH_LISTING_MODELS), the gateway in its own process. First the cold read: the first
 * `GET /api/v1/models` after start (the listing is rendered before the server listens, and before a
 * reloaded snapshot is swapped in; this read encodes the whole list to bytes once). Then closed-loop load at concurrency 8 (BENCH_LISTING_CONNECTIONS), 2 s of
 * warm-up and BENCH_SECONDS (default 10) measured, per scenario: the whole list (gzipped, as the
 * HTTP clients that list models ask for it, and plain), a filtered and sorted page, one model, and
 * one model's endpoints. Target: the whole list at p50 under 5 ms.
 * Needs `npm run build` first.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { readBenchConfig } from './bench-config.js';
import { measureReplies } from './reply-load.js';
import { startService } from './service-process.js';

const TARGET_P50_MS = 5;
const connections = Number(process.env.BENCH_LISTING_CONNECTIONS ?? 8);
const config = readBenchConfig();

const GZIP = { 'accept-encoding': 'gzip' };

/** [name, path, request headers] */
const SCENARIOS = [
  ['GET /models (whole list, gzip)', '/api/v1/models', GZIP],
  ['GET /models (whole list, identity)', '/api/v1/models', {}],
  ['GET /models?q=model-1&zdr=true&sort=price-low-to-high&limit=50', '/api/v1/models?q=model-1&zdr=true&sort=price-low-to-high&limit=50', {}],
  ['GET /models/:author/:slug', '/api/v1/models/author-7/model-1007', {}],
  ['GET /models/:author/:slug/endpoints', '/api/v1/models/author-7/model-1007/endpoints', {}],
];

async function coldRead(url) {
  const startedAt = performance.now();
  const response = await request(`${url}/api/v1/models`);
  const body = await response.body.text();
  return { ms: performance.now() - startedAt, bytes: Buffer.byteLength(body), models: JSON.parse(body).data.length };
}

const gateway = await startService('serve-listing-gateway.js');
try {
  const { url, models } = gateway.info;
  const cold = await coldRead(url);
  console.log(`catalogue: ${models} models × 3 endpoints; first GET /models (listing rendered at start; encodes it once): ${cold.ms.toFixed(1)} ms, ${cold.models} models, ${(cold.bytes / 1e6).toFixed(2)} MB`);
  console.log(`concurrency ${connections}, ${config.seconds} s measured after ${config.warmupSeconds} s warm-up; load average before: ${loadavg().map((value) => value.toFixed(2)).join(' ')}\n`);
  const rows = [];
  for (const [name, path, headers] of SCENARIOS) {
    const load = { url: `${url}${path}`, method: 'GET', headers, connections };
    await measureReplies({ ...load, seconds: config.warmupSeconds });
    const before = await gateway.cpu();
    const result = await measureReplies({ ...load, seconds: config.seconds });
    const after = await gateway.cpu();
    const cpuMicros = (after.user + after.system - before.user - before.system) / Math.max(1, result.count);
    rows.push({ name, path, cpuMicros, ...result });
  }
  console.log('| scenario | req/s | p50 ms | p99 ms | gateway CPU µs/req | failed |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.cpuMicros.toFixed(0)} | ${row.errors} |`);
  }
  for (const whole of rows.filter((row) => row.path === '/api/v1/models')) {
    console.log(`target ${whole.name}: p50 under ${TARGET_P50_MS} ms: ${whole.p50 < TARGET_P50_MS ? 'met' : 'NOT met'} (${whole.p50.toFixed(2)} ms)`);
  }
} finally {
  await gateway.stop();
}
