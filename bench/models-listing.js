/**
 * `node bench/models-listing.js`: the catalogue reads over a generated catalogue of 2,000 models × 3
 * endpoints (BENCH_LISTING_MODELS), the gateway in its own process. First the cold read: the first
 * `GET /api/v1/models` after start (the listing is rendered before the server listens, and before a
 * reloaded snapshot is swapped in; this read encodes the whole list to bytes once). Then closed-loop
 * load from a Node load generator (autocannon) at concurrency 8 (BENCH_LISTING_CONNECTIONS), 2 s of
 * warm-up and BENCH_SECONDS (default 10) measured, per scenario: the whole list (gzipped, as the
 * HTTP clients that list models ask for it, and plain), a filtered and sorted page, one model, and
 * one model's endpoints. That generator shares the cores with the gateway and bounds the latency it
 * reads for the whole list, so where `wrk` and `taskset` are on PATH (Linux, at least 2 CPUs) the two
 * whole-list scenarios are measured again with `wrk -t1 --latency`, wrk pinned to CPU 0 and the
 * gateway to CPU 1. Target: the whole list at p50 under 5 ms, judged on the wrk figures; without wrk
 * it is not judged (`apt-get install wrk`).
 * Needs `npm run build` first.
 */
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { request } from 'undici';
import { readBenchConfig } from './bench-config.js';
import { measureReplies } from './reply-load.js';
import { startService } from './service-process.js';
import { measureWithWrk, pinToCpu, pinnedWrkMissing } from './wrk-load.js';

const TARGET_P50_MS = 5;
const LOAD_CPU = 0;
const GATEWAY_CPU = 1;
const connections = Number(process.env.BENCH_LISTING_CONNECTIONS ?? 8);
const config = readBenchConfig();

const GZIP = { 'accept-encoding': 'gzip' };
const WHOLE_LIST = '/api/v1/models';

/** [name, path, request headers] */
const SCENARIOS = [
  ['GET /models (whole list, gzip)', WHOLE_LIST, GZIP],
  ['GET /models (whole list, identity)', WHOLE_LIST, {}],
  ['GET /models?q=model-1&zdr=true&sort=price-low-to-high&limit=50', '/api/v1/models?q=model-1&zdr=true&sort=price-low-to-high&limit=50', {}],
  ['GET /models/:author/:slug', '/api/v1/models/author-7/model-1007', {}],
  ['GET /models/:author/:slug/endpoints', '/api/v1/models/author-7/model-1007/endpoints', {}],
];

async function coldRead(url) {
  const startedAt = performance.now();
  const response = await request(`${url}${WHOLE_LIST}`);
  const body = await response.body.text();
  return { ms: performance.now() - startedAt, bytes: Buffer.byteLength(body), models: JSON.parse(body).data.length };
}

/** Every scenario with the Node load generator, and the gateway's CPU per request. */
async function measureShared(gateway, url) {
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
  return rows;
}

/** The whole-list scenarios with wrk on LOAD_CPU, the gateway pinned to GATEWAY_CPU. */
async function measurePinned(gateway, url) {
  await pinToCpu(gateway.pid, GATEWAY_CPU);
  const rows = [];
  for (const [name, path, headers] of SCENARIOS.filter(([, path]) => path === WHOLE_LIST)) {
    const load = { url: `${url}${path}`, headers, connections, cpu: LOAD_CPU };
    await measureWithWrk({ ...load, seconds: config.warmupSeconds });
    rows.push({ name, ...(await measureWithWrk({ ...load, seconds: config.seconds })) });
  }
  return rows;
}

function printShared(rows) {
  console.log('With the Node load generator (autocannon) sharing the cores with the gateway:\n');
  console.log('| scenario | req/s | p50 ms | p99 ms | gateway CPU µs/req | failed |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.cpuMicros.toFixed(0)} | ${row.errors} |`);
  }
}

function printPinned(rows) {
  console.log(`\nWith a C load generator on its own core (\`wrk -t1 -c${connections}\` on CPU ${LOAD_CPU}, the gateway pinned to CPU ${GATEWAY_CPU}):\n`);
  console.log('| scenario | req/s | p50 ms | p99 ms | failed |');
  console.log('|---|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.rps.toFixed(0)} | ${row.p50.toFixed(2)} | ${row.p99.toFixed(2)} | ${row.errors} |`);
  }
}

function printTargets(sharedRows, pinnedRows, wrkMissing) {
  console.log('');
  if (pinnedRows) {
    for (const row of pinnedRows) {
      console.log(`target ${row.name}: p50 under ${TARGET_P50_MS} ms with wrk: ${row.p50 < TARGET_P50_MS ? 'met' : 'NOT met'} (${row.p50.toFixed(2)} ms)`);
    }
    return;
  }
  for (const row of sharedRows.filter((entry) => entry.path === WHOLE_LIST)) {
    console.log(`target ${row.name}: p50 under ${TARGET_P50_MS} ms: not judged, ${wrkMissing}. The p50 above (${row.p50.toFixed(2)} ms) is bound by the Node load generator sharing the cores with the gateway; the target is judged with wrk on its own core (\`apt-get install wrk\`).`);
  }
}

const gateway = await startService('serve-listing-gateway.js');
try {
  const { url, models } = gateway.info;
  const cold = await coldRead(url);
  console.log(`catalogue: ${models} models × 3 endpoints; first GET /models (listing rendered at start; encodes it once): ${cold.ms.toFixed(1)} ms, ${cold.models} models, ${(cold.bytes / 1e6).toFixed(2)} MB`);
  console.log(`concurrency ${connections}, ${config.seconds} s measured after ${config.warmupSeconds} s warm-up; load average before: ${loadavg().map((value) => value.toFixed(2)).join(' ')}\n`);
  const sharedRows = await measureShared(gateway, url);
  printShared(sharedRows);
  const wrkMissing = pinnedWrkMissing();
  const pinnedRows = wrkMissing ? undefined : await measurePinned(gateway, url);
  if (pinnedRows) printPinned(pinnedRows);
  printTargets(sharedRows, pinnedRows, wrkMissing);
} finally {
  await gateway.stop();
}
