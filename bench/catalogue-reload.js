/**
 * `node bench/catalogue-reload.js [DIR]`: how long a catalogue reload holds up requests in flight.
 * Starts `switchyard serve` from DIR (default: this checkout; built with `npm run build`) on a
 * generated catalogue of 2,000 models × 3 endpoints (BENCH_LISTING_MODELS), keeps a steady
 * closed-loop stream of cheap requests (`GET /api/v1/models/count`, BENCH_RELOAD_CONNECTIONS
 * clients, default 4) and, after a quiet baseline, reloads the catalogue BENCH_RELOADS times
 * (default 6): a rewrite of the file (the watcher's reload) and SIGHUP in turn. Reported, for the
 * quiet baseline and for the reloads: the longest request, the longest gap between two replies,
 * and the gateway's own `nodejs_eventloop_lag_max_seconds` (from `/metrics`, read before and
 * after each window, so each reading covers one window). Target: no stall over 50 ms.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { listingCatalogueYaml } from './listing-catalogue.js';

const TARGET_STALL_MS = 50;
const models = Number(process.env.BENCH_LISTING_MODELS ?? 2_000);
const connections = Number(process.env.BENCH_RELOAD_CONNECTIONS ?? 4);
const reloads = Number(process.env.BENCH_RELOADS ?? 6);
const BASELINE_MS = 5_000;
const checkout = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));

/** The generated catalogue, its descriptions marked with `revision` so every rewrite differs. */
function catalogueText(revision) {
  const unlimited = 1_000_000_000;
  return `${listingCatalogueYaml(models).replaceAll('for the listing benchmark.', `for the listing benchmark (revision ${revision}).`)}`
    + `settings:\n  rate_limits: { per_key_per_minute: ${unlimited}, per_address_per_minute: ${unlimited} }\n`;
}

function startServe(configPath, databasePath) {
  const child = spawn(process.execPath, [join(checkout, 'bin/switchyard.js'), 'serve', '--config', configPath, '--port', '0', '--database', `sqlite:${databasePath}`], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolveUrl, reject) => {
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk.toString();
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolveUrl({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`switchyard serve exited with code ${code}: ${output}`)));
  });
}

/** Sends GET /api/v1/models/count from `connections` clients until stopped; keeps every reply's end and duration. */
function steadyLoad(pool) {
  const replies = [];
  let running = true;
  let failed = 0;
  const client = async () => {
    while (running) {
      const startedAt = performance.now();
      const response = await pool.request({ path: '/api/v1/models/count', method: 'GET' });
      await response.body.text();
      if (response.statusCode !== 200) failed += 1;
      const endedAt = performance.now();
      replies.push({ endedAt, ms: endedAt - startedAt });
    }
  };
  const clients = Array.from({ length: connections }, client);
  return { replies, failed: () => failed, stop: async () => { running = false; await Promise.all(clients); } };
}

async function metricsOf(pool) {
  const response = await pool.request({ path: '/metrics', method: 'GET' });
  const text = await response.body.text();
  // a counter not yet incremented has no series: 0
  const value = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  return { lagMaxMs: value('nodejs_eventloop_lag_max_seconds') * 1_000, reloaded: value('switchyard_catalogue_reloads_total\\{outcome="reloaded"\\}') };
}

/** The longest request and the longest gap between replies ending within [from, to]. */
function stallsBetween(replies, from, to) {
  const inside = replies.filter((reply) => reply.endedAt >= from && reply.endedAt <= to);
  let longestGap = 0;
  for (let index = 1; index < inside.length; index += 1) longestGap = Math.max(longestGap, inside[index].endedAt - inside[index - 1].endedAt);
  return { count: inside.length, longestRequest: Math.max(0, ...inside.map((reply) => reply.ms)), longestGap };
}

// written out before the load starts: generating 2,000 models' YAML would stall this process
const revisions = Array.from({ length: reloads + 1 }, (_, revision) => catalogueText(revision));
const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-reload-'));
const configPath = join(dir, 'catalogue.yaml');
await writeFile(configPath, revisions[0]);
const startedAt = performance.now();
const { child, url } = await startServe(configPath, join(dir, 'bench.db'));
const startMs = performance.now() - startedAt;
const pool = new Pool(url, { connections: connections + 1 });
try {
  console.log(`gateway from ${checkout}; catalogue: ${models} models × 3 endpoints; started in ${(startMs / 1000).toFixed(1)} s`);
  console.log(`${connections} clients of GET /api/v1/models/count; load average before: ${loadavg().map((value) => value.toFixed(2)).join(' ')}\n`);
  const load = steadyLoad(pool);
  await sleep(1_000);
  await metricsOf(pool);
  const baselineFrom = performance.now();
  await sleep(BASELINE_MS);
  const baselineTo = performance.now();
  const rows = [{ name: 'quiet (no reload)', ms: baselineTo - baselineFrom, lagMaxMs: (await metricsOf(pool)).lagMaxMs, ...stallsBetween(load.replies, baselineFrom, baselineTo) }];
  for (let index = 1; index <= reloads; index += 1) {
    const trigger = index % 2 === 1 ? 'file rewrite' : 'SIGHUP';
    const before = await metricsOf(pool);
    const from = performance.now();
    if (trigger === 'SIGHUP') child.kill('SIGHUP');
    else await writeFile(configPath, revisions[index]);
    let now = await metricsOf(pool);
    while (now.reloaded === before.reloaded) {
      await sleep(50);
      now = await metricsOf(pool);
    }
    const to = performance.now();
    // the reading after the reload covers the whole window: the polls in between reset it
    const lagMaxMs = Math.max(now.lagMaxMs, (await metricsOf(pool)).lagMaxMs);
    rows.push({ name: `reload ${index} (${trigger})`, ms: to - from, lagMaxMs, ...stallsBetween(load.replies, from, to + 100) });
    await sleep(500);
  }
  await load.stop();
  console.log('| window | length ms | replies | longest request ms | longest gap between replies ms | gateway event-loop lag max ms |');
  console.log('|---|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.ms.toFixed(0)} | ${row.count} | ${row.longestRequest.toFixed(1)} | ${row.longestGap.toFixed(1)} | ${row.lagMaxMs.toFixed(1)} |`);
  }
  const worst = Math.max(...rows.slice(1).map((row) => row.longestRequest));
  console.log(`\nfailed replies: ${load.failed()}`);
  console.log(`target: no request held up more than ${TARGET_STALL_MS} ms by a reload: ${worst <= TARGET_STALL_MS ? 'met' : 'NOT met'} (longest request during reloads ${worst.toFixed(1)} ms)`);
} finally {
  await pool.close();
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  await rm(dir, { recursive: true, force: true });
}
