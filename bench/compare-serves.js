/**
 * `node bench/compare-serves.js DIR_A DIR_B` (after one `node bench/peers.js`, which installs the
 * harness in PEERS_WORK): two builds of the real `switchyard serve` side by side, configured and
 * funded as the peers harness runs it (peers-gateway.js), each on a database of its own: each pinned to CPU 1 with its standard output going to a file,
 * the harness' mock upstream and wrk (its own `post.lua` and bodies) on CPU 0. wrk loads one
 * gateway, then the other, in short bursts (non-streamed and streamed in turn, the order swapped
 * every round), so that both see the same machine; the CPU each spent comes from /proc. On this
 * shared machine two harness runs differ by ±10 %, two builds compared here by ±2 %.
 *
 * Unlike compare-gateways.js (the bench gateway, silent logger), this sees everything the harness
 * sees: the request log written to a file, the CLI's defaults. COMPARE_ENV_A / COMPARE_ENV_B add
 * environment to one side (`LOG_LEVEL=warn` measures the log line: both sides may name one
 * checkout). COMPARE_ROUNDS (default 6), COMPARE_BURST_SECONDS (3), COMPARE_MODES (`ns st`; `ns1
 * st1` at one connection; `prompt` and `tools`, non-streamed, the peers run's two large bodies) and
 * COMPARE_CONNECTIONS (32) shape the load. COMPARE_POSTGRES (a server
 * URL such as postgres://postgres@127.0.0.1:5432) serves each side from a database of its own there
 * (`switchyard_compare_a`, `_b`, made afresh) instead of a SQLite file; the keys stay in SQLite.
 * On PostgreSQL the CPU of the server's processes serving each side's database is counted too (the
 * database's CPU per request). Each side's peak resident memory over the whole comparison is printed last.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { largePromptBody, manyToolsBody } from './chat-bodies.js';
import { freshPostgresDatabase, fundedKey, MODEL, writeBenchConfig } from './peers-gateway.js';

const WORK = process.env.PEERS_WORK ?? join(tmpdir(), 'switchyard-peers');
const harness = join(WORK, 'harness');
const MOCK_PORT = 18080;
const PROMPT = 'You are a benchmark. Reply with a short deterministic sentence about foxes and dogs, nothing else.';
const LOAD_CPU = '0';
const GATEWAY_CPU = '1';

const dirs = process.argv.slice(2, 4).map((dir) => resolve(dir));
if (dirs.length !== 2) throw new Error('usage: node bench/compare-serves.js DIR_A DIR_B');
if (!existsSync(join(harness, 'mock-upstream.mjs'))) throw new Error(`no peers harness in ${harness}: run node bench/peers.js once first`);
const rounds = Number(process.env.COMPARE_ROUNDS ?? 6);
const burstSeconds = Number(process.env.COMPARE_BURST_SECONDS ?? 3);
const modes = (process.env.COMPARE_MODES ?? 'ns st').split(/\s+/);
const connections = process.env.COMPARE_CONNECTIONS ?? '32';

const scratch = join(WORK, 'compare');
rmSync(scratch, { recursive: true, force: true });
mkdirSync(scratch, { recursive: true });
const config = writeBenchConfig(scratch);
// the harness' two bodies, as run.sh writes them
const stream = ',"stream":true,"stream_options":{"include_usage":true}';
const bodies = {};
for (const mode of ['ns', 'st']) {
  bodies[mode] = join(scratch, `body-${mode}.json`);
  writeFileSync(bodies[mode], `{"model":"${MODEL}","messages":[{"role":"system","content":"You are terse."},{"role":"user","content":"${PROMPT}"}],"max_tokens":64,"temperature":0${mode === 'st' ? stream : ''}}`);
}
for (const [mode, body] of [['prompt', largePromptBody], ['tools', manyToolsBody]]) {
  bodies[mode] = join(scratch, `body-${mode}.json`);
  writeFileSync(bodies[mode], JSON.stringify(body(MODEL)));
}

const cpuTicks = (pid) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return Number(fields[11]) + Number(fields[12]);
};
const TICKS_PER_SECOND = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }));

const started = [];
process.on('exit', () => started.forEach((child) => child.kill()));
if (!(await answers(`http://127.0.0.1:${MOCK_PORT}/v1/models`))) {
  const mock = spawn('taskset', ['-c', LOAD_CPU, 'node', join(harness, 'mock-upstream.mjs')], { env: { ...process.env, MOCK_PORT: String(MOCK_PORT), MOCK_CHUNKS: '20' }, stdio: 'ignore' });
  started.push(mock);
}

const postgres = process.env.COMPARE_POSTGRES;
/** On PostgreSQL: the server's processes serving one side's database, to count their CPU as that side's. */
const watcher = postgres ? await openWatcher(postgres) : undefined;
const sides = [];
for (const [index, dir] of dirs.entries()) {
  const name = String.fromCharCode(65 + index);
  const database = postgres ? await freshPostgresDatabase(postgres, `switchyard_compare_${name.toLowerCase()}`) : `sqlite:${join(scratch, `${name}.db`)}`;
  const key = fundedKey(join(dir, 'bin', 'switchyard.js'), database);
  const env = Object.fromEntries((process.env[`COMPARE_ENV_${name}`] ?? '').split(/\s+/).filter(Boolean).map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]));
  const port = 18090 + index;
  const child = spawn('taskset', ['-c', GATEWAY_CPU, 'node', join(dir, 'bin', 'switchyard.js'), 'serve', '--config', config, '--port', String(port),
    '--database', database, '--key-store', `sqlite:${join(scratch, `${name}-keys.db`)}`], {
    env: { ...process.env, ...env },
    stdio: ['ignore', openSync(join(scratch, `${name}.log`), 'w'), 'inherit'],
  });
  started.push(child);
  sides.push({ name: `${name} ${dir}${Object.keys(env).length ? ` (${process.env[`COMPARE_ENV_${name}`]})` : ''}`, port, key, child, database: postgres && new URL(database).pathname.slice(1), tally: {} });
}
for (const side of sides) {
  for (let tries = 0; !(await answers(`http://127.0.0.1:${side.port}/api/v1/models`)); tries += 1) {
    if (tries > 100) throw new Error(`${side.name} did not start`);
    await sleep(200);
  }
}

/** One wrk burst of `mode` on `side`: its report's summary line. */
function burst(side, mode, seconds) {
  const body = bodies[mode.replace('1', '')];
  const report = execFileSync('taskset', ['-c', LOAD_CPU, 'wrk', '-t1', `-c${mode.endsWith('1') ? 1 : connections}`, `-d${seconds}s`, '--latency',
    '-s', join(harness, 'lua', 'post.lua'), '-H', `authorization: Bearer ${side.key}`, `http://127.0.0.1:${side.port}/api/v1/chat/completions`],
  { env: { ...process.env, BODY_FILE: body }, encoding: 'utf8' });
  const line = report.split('\n').find((text) => text.startsWith('WRKJSON '));
  if (!line) throw new Error(`wrk printed no summary:\n${report}`);
  return JSON.parse(line.slice('WRKJSON '.length));
}

for (const mode of modes) for (const side of sides) burst(side, mode, 2);
for (let round = 0; round < rounds; round += 1) {
  for (const mode of modes) {
    for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
      const before = cpuTicks(side.child.pid);
      const serverBefore = watcher && (await watcher.ticks(side.database));
      const result = burst(side, mode, burstSeconds);
      const tally = (side.tally[mode] ??= { ticks: 0, serverTicks: 0, requests: 0, failed: 0, p50: [] });
      tally.ticks += cpuTicks(side.child.pid) - before;
      if (watcher) tally.serverTicks += watcher.spent(serverBefore, await watcher.ticks(side.database));
      tally.requests += result.requests;
      tally.failed += result.err_status + result.err_read + result.err_connect + result.err_timeout;
      tally.p50.push(result.lat_p50_us);
    }
  }
}
for (const mode of modes) {
  const cpu = sides.map((side) => (side.tally[mode].ticks / TICKS_PER_SECOND) * 1e6 / side.tally[mode].requests);
  const lines = sides.map((side, index) => {
    const { requests, failed, p50 } = side.tally[mode];
    const median = [...p50].sort((a, b) => a - b)[p50.length >> 1];
    const server = watcher ? `, the database's ${((side.tally[mode].serverTicks / TICKS_PER_SECOND) * 1e6 / requests).toFixed(1)} µs CPU/req` : '';
    return `${side.name}: ${(requests / (rounds * burstSeconds)).toFixed(0)} req/s, ${cpu[index].toFixed(1)} µs CPU/req${server}, p50 ${median} µs, ${failed} failed`;
  });
  const serverCpu = sides.map((side) => side.tally[mode].serverTicks / side.tally[mode].requests);
  const serverRatio = watcher ? `; the database's: ${(serverCpu[1] / serverCpu[0]).toFixed(3)}` : '';
  console.log(`${mode}:\n  ${lines.join('\n  ')}\n  B/A CPU per request: ${(cpu[1] / cpu[0]).toFixed(3)}${serverRatio}`);
}
// taskset runs the gateway in its own process: its peak resident memory over the whole comparison
const peakRss = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
console.log(`peak RSS: ${sides.map((side) => `${side.name.split(' ')[0]} ${peakRss(side.child.pid).toFixed(0)} MiB`).join(', ')}`);
process.exit(0);

/**
 * The CPU of the server processes (one per connection) serving a database, read from /proc: the
 * backends open before a burst and those opened during it, so that each side is charged the
 * database's work for its own requests (the server's shared processes, its WAL writer and
 * checkpointer, are left out).
 */
async function openWatcher(server) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: server });
  await client.connect();
  const ticksOf = (pid) => {
    try {
      return cpuTicks(pid);
    } catch {
      return undefined; // the connection closed: its last ticks are lost
    }
  };
  return {
    async ticks(database) {
      const { rows } = await client.query('SELECT pid FROM pg_stat_activity WHERE datname = $1', [database]);
      return new Map(rows.map(({ pid }) => [pid, ticksOf(pid)]));
    },
    spent(before, after) {
      let ticks = 0;
      for (const [pid, now] of after) if (now !== undefined) ticks += now - (before.get(pid) ?? 0);
      return ticks;
    },
  };
}

async function answers(url) {
  try {
    await fetch(url);
    return true;
  } catch {
    return false;
  }
}
