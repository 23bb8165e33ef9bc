/**
 * `node bench/catalogue-reload.js [DIR]`: how long a catalogue reload holds up requests in flight.
 * Starts `switchyard serve` from DIR (default: this checkout; built with `npm run build`) on a
 * generated catalogue of 2,000 models × 3 endpoints (BENCH_LISTING_MODELS), keeps a steady
 * stream of cheap requests (`GET /api/v1/models/count`, BENCH_RELOAD_CONNECTIONS clients, default
 * 4): back to back, which saturates this machine, or, with BENCH_RELOAD_RATE, that many requests a
 * second in all, each client on a fixed schedule (a busy gateway with CPU to spare), and reloads
 * the catalogue BENCH_RELOADS times (default 6): a rewrite of the file (the watcher's reload) and
 * SIGHUP in turn, each after a quiet window as long as the reload before it, so the machine's own
 * noise is measured beside it. Reported per window: the longest request, the longest gap between
 * two replies, the gateway's event-loop stall to the millisecond (event-loop-probe.cjs, loaded into
 * it), its `nodejs_eventloop_lag_max_seconds` (read from `/metrics` every 50 ms: a 10 ms sample
 * that reads up to 10 ms above the stall) and this process's own delay, which tells a stall of the
 * load generator apart.
 * Target: a reload stalls the gateway's event loop no more than 50 ms. The catalogue's prober is off.
 * `BENCH_NODE_FLAGS` passes flags to the gateway's node (`--trace-gc`), whose standard output
 * `BENCH_GATEWAY_OUTPUT` keeps in a file.
 */
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { listingCatalogueYaml } from './listing-catalogue.js';

const TARGET_STALL_MS = 50;
const models = Number(process.env.BENCH_LISTING_MODELS ?? 2_000);
const connections = Number(process.env.BENCH_RELOAD_CONNECTIONS ?? 4);
const reloads = Number(process.env.BENCH_RELOADS ?? 6);
/** Requests a second in all (`BENCH_RELOAD_RATE`); unset: each client sends its next request as soon as a reply is in. */
const rate = process.env.BENCH_RELOAD_RATE ? Number(process.env.BENCH_RELOAD_RATE) : undefined;
/** Extra flags for the gateway's node (`BENCH_NODE_FLAGS="--trace-gc"`): NODE_OPTIONS refuses some. */
const nodeFlags = (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);
/** A file that keeps the gateway's standard output (`BENCH_GATEWAY_OUTPUT`), say for `--trace-gc`. */
const gatewayOutput = process.env.BENCH_GATEWAY_OUTPUT;
/** Prints the gateway's event-loop stall every 50 ms, to the millisecond (see event-loop-probe.cjs). */
const LOOP_PROBE = fileURLToPath(new URL('./event-loop-probe.cjs', import.meta.url));
const checkout = resolve(process.argv[2] ?? fileURLToPath(new URL('..', import.meta.url)));

/**
 * The generated catalogue, its descriptions marked with `revision` so every rewrite differs. The
 * prober is off: its first round over 6,000 endpoints (all refused by the unused base URL) would run
 * beside the first reloads and be measured with them.
 */
function catalogueText(revision) {
  const unlimited = 1_000_000_000;
  return `${listingCatalogueYaml(models).replaceAll('for the listing benchmark.', `for the listing benchmark (revision ${revision}).`)}`
    + `settings:\n  rate_limits: { per_key_per_minute: ${unlimited}, per_address_per_minute: ${unlimited} }\n`
    + '  prober: { enabled: false }\n';
}

function startServe(configPath, databasePath) {
  const child = spawn(process.execPath, [...nodeFlags, '--require', LOOP_PROBE, join(checkout, 'bin/switchyard.js'), 'serve', '--config', configPath, '--port', '0', '--database', `sqlite:${databasePath}`], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolveUrl, reject) => {
    let output = '';
    let pending = '';
    child.stdout.on('data', (chunk) => {
      if (gatewayOutput) appendFileSync(gatewayOutput, chunk);
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) {
        const probe = /^event-loop stall (\S+)$/.exec(line);
        if (probe) loopStall.record(Number(probe[1]));
        else output += `${line}\n`;
      }
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) resolveUrl({ child, url: match[1] });
    });
    child.once('exit', (code) => reject(new Error(`switchyard serve exited with code ${code}: ${output}`)));
  });
}

/**
 * Sends GET /api/v1/models/count from `connections` clients until stopped, back to back or at
 * `rate` requests a second in all (a request whose slot has passed is sent at once); keeps every
 * reply's end and duration.
 */
function steadyLoad(pool) {
  const replies = [];
  let running = true;
  let failed = 0;
  const intervalMs = rate ? (1_000 * connections) / rate : 0;
  const client = async (index) => {
    let slot = performance.now() + (intervalMs * index) / connections;
    while (running) {
      if (intervalMs > 0) {
        const wait = slot - performance.now();
        if (wait > 0) await sleep(wait);
        slot += intervalMs;
      }
      const startedAt = performance.now();
      const response = await pool.request({ path: '/api/v1/models/count', method: 'GET' });
      await response.body.text();
      if (response.statusCode !== 200) failed += 1;
      const endedAt = performance.now();
      replies.push({ endedAt, ms: endedAt - startedAt });
    }
  };
  const clients = Array.from({ length: connections }, (_, index) => client(index));
  return { replies, failed: () => failed, stop: async () => { running = false; await Promise.all(clients); } };
}

async function metricsOf(pool) {
  const response = await pool.request({ path: '/metrics', method: 'GET' });
  const text = await response.body.text();
  // a counter not yet incremented has no series: 0
  const value = (name) => Number(new RegExp(`^${name} (\\S+)`, 'm').exec(text)?.[1] ?? 0);
  return { lagMaxMs: value('nodejs_eventloop_lag_max_seconds') * 1_000, reloaded: value('switchyard_catalogue_reloads_total\\{outcome="reloaded"\\}') };
}

/**
 * Polls the gateway's metrics every 50 ms until `done(reading)` says so; every reading covers the
 * time since the one before, so the window's event-loop maximum is the largest of them.
 */
async function observeWindow(load, name, done) {
  const from = performance.now();
  let lagMaxMs = 0;
  let finished = false;
  while (!finished) {
    const reading = await metricsOf(pool);
    lagMaxMs = Math.max(lagMaxMs, reading.lagMaxMs);
    finished = await done(reading);
    if (!finished) await sleep(50);
  }
  const to = performance.now();
  await sleep(100);
  lagMaxMs = Math.max(lagMaxMs, (await metricsOf(pool)).lagMaxMs);
  return { name, ms: to - from, lagMaxMs, stallMs: loopStall.take(), benchLagMs: ownLag.take(), ...stallsBetween(load.replies, from, to + 100) };
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

/** The longest request and the longest gap between replies ending within [from, to]. */
function stallsBetween(replies, from, to) {
  const inside = replies.filter((reply) => reply.endedAt >= from && reply.endedAt <= to);
  let longestGap = 0;
  for (let index = 1; index < inside.length; index += 1) longestGap = Math.max(longestGap, inside[index].endedAt - inside[index - 1].endedAt);
  const longestRequest = inside.reduce((longest, reply) => Math.max(longest, reply.ms), 0);
  return { count: inside.length, longestRequest, longestGap };
}

// written out before the load starts: generating 2,000 models' YAML would stall this process
const revisions = Array.from({ length: reloads + 1 }, (_, revision) => catalogueText(revision));
/** This process's own event-loop delay: a stall here shows as a long request that the gateway did not cause. */
const ownLag = (() => {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  return { take: () => { const max = histogram.max / 1e6; histogram.reset(); return max; } };
})();
/** The longest event-loop stall the gateway's probe printed since the last `take`. */
const loopStall = (() => {
  let longest = 0;
  return {
    record: (ms) => {
      longest = Math.max(longest, ms);
    },
    take: () => {
      const ms = longest;
      longest = 0;
      return ms;
    },
  };
})();
const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-reload-'));
const configPath = join(dir, 'catalogue.yaml');
await writeFile(configPath, revisions[0]);
const startedAt = performance.now();
const { child, url } = await startServe(configPath, join(dir, 'bench.db'));
const startMs = performance.now() - startedAt;
const pool = new Pool(url, { connections: connections + 1 });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    child.kill('SIGTERM');
    process.exit(1);
  });
}
let load;
try {
  console.log(`gateway from ${checkout}; catalogue: ${models} models × 3 endpoints; started in ${(startMs / 1000).toFixed(1)} s`);
  console.log(`${connections} clients of GET /api/v1/models/count, ${rate ? `${rate} requests a second in all` : 'back to back'}; load average before: ${loadavg().map((value) => value.toFixed(2)).join(' ')}\n`);
  load = steadyLoad(pool);
  await sleep(1_000);
  await metricsOf(pool);
  ownLag.take();
  loopStall.take();
  const rows = [];
  let quietMs = 3_000;
  for (let index = 1; index <= reloads; index += 1) {
    // a quiet window as long as the last reload, polled the same way: the machine's own noise
    rows.push(await observeWindow(load, `quiet before reload ${index}`, async () => {
      await sleep(quietMs);
      return true;
    }));
    const trigger = index % 2 === 1 ? 'file rewrite' : 'SIGHUP';
    const before = await metricsOf(pool);
    if (trigger === 'SIGHUP') child.kill('SIGHUP');
    else await writeFile(configPath, revisions[index]);
    const reload = await observeWindow(load, `reload ${index} (${trigger})`, async (now) => now.reloaded !== before.reloaded);
    rows.push(reload);
    quietMs = reload.ms;
  }
  await load.stop();
  console.log('| window | length ms | replies | longest request ms | longest gap between replies ms | gateway event-loop stall ms | gateway lag metric max ms | load generator lag max ms |');
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const row of rows) {
    console.log(`| ${row.name} | ${row.ms.toFixed(0)} | ${row.count} | ${row.longestRequest.toFixed(1)} | ${row.longestGap.toFixed(1)} | ${row.stallMs.toFixed(1)} | ${row.lagMaxMs.toFixed(1)} | ${row.benchLagMs.toFixed(1)} |`);
  }
  const quiet = rows.filter((row) => row.name.startsWith('quiet'));
  const reloading = rows.filter((row) => row.name.startsWith('reload'));
  console.log(`\nfailed replies: ${load.failed()}`);
  for (const [what, key] of [['gateway event-loop stall', 'stallMs'], ['gateway lag metric max', 'lagMaxMs'], ['longest request', 'longestRequest']]) {
    const summary = (windows) => `median ${median(windows.map((row) => row[key])).toFixed(1)} ms, max ${Math.max(...windows.map((row) => row[key])).toFixed(1)} ms`;
    console.log(`${what}: reloads ${summary(reloading)}; quiet windows ${summary(quiet)}`);
  }
  const worst = Math.max(...reloading.map((row) => row.stallMs));
  console.log(`target: no reload stalls the gateway's event loop more than ${TARGET_STALL_MS} ms: ${worst <= TARGET_STALL_MS ? 'met' : 'NOT met'} (the longest, ${worst.toFixed(1)} ms)`);
} finally {
  await load?.stop().catch(() => undefined);
  await pool.close();
  child.kill('SIGTERM');
  await new Promise((done) => child.once('exit', done));
  await rm(dir, { recursive: true, force: true });
}
