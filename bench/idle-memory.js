/**
 * `node bench/idle-memory.js` (after `npm run build`): the memory of a started gateway at rest, as
 * an operator runs it: `switchyard serve` (the real command, so the heap settings and the start-up
 * collection `serve` makes are in) with a one-model config and a fresh SQLite database, no request
 * sent. Its resident set (VmRSS) is read from the moment it prints that it listens, at the seconds
 * of BENCH_IDLE_AT (default 1,5,10,20,30,45,60), over three starts (BENCH_IDLE_STARTS); and the CPU it
 * used at rest, in ms a second, from the second sample to the last (its timers and threads waking).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../bin/switchyard.js', import.meta.url));
const AT_SECONDS = (process.env.BENCH_IDLE_AT ?? '1,5,10,20,30,45,60').split(',').map(Number);
const STARTS = Number(process.env.BENCH_IDLE_STARTS ?? 3);

const CONFIG = `providers:
  - slug: upstream
    name: Upstream
    api: openai
    base_url: http://127.0.0.1:9/v1
    data_policy: { training: false, retention_days: 0 }
    compliance: { zdr: true, hipaa: false }
    datacenters: [US]
models:
  - id: bench/idle
    name: "Bench: Idle"
    created: 2025-06-01
    description: A model nobody calls.
    endpoints:
      - provider: upstream
        upstream_model: idle
        context_length: 128000
        supported_parameters: [max_tokens]
        pricing: { prompt: "0.0000005", completion: "0.0000015" }
`;

/** The kernel's clock ticks a second, in which /proc reports a process's CPU time. */
const TICKS_PER_SECOND = 100;

/** The CPU `pid` has used so far (user and system), in ms. */
async function cpuMs(pid) {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
}

async function residentMiB(pid) {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]) / 1024;
}

/** One start: the RSS at each of AT_SECONDS after the gateway says it listens, and the CPU used between the second and the last. */
async function oneStart(port) {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-idle-'));
  await writeFile(join(dir, 'config.yaml'), CONFIG);
  const child = spawn(process.execPath, [CLI, 'serve', '--config', join(dir, 'config.yaml'), '--port', String(port), '--database', `sqlite:${join(dir, 'idle.db')}`], {
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  try {
    await new Promise((resolve, reject) => {
      let printed = '';
      child.stdout.on('data', (chunk) => {
        printed += chunk;
        if (printed.includes('listening on')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`switchyard serve exited with ${code}`)));
    });
    const listened = performance.now();
    const samples = [];
    const cpu = [];
    for (const seconds of AT_SECONDS) {
      await sleep(Math.max(0, listened + seconds * 1000 - performance.now()));
      samples.push(await residentMiB(child.pid));
      cpu.push(await cpuMs(child.pid));
    }
    const restSeconds = (AT_SECONDS.at(-1) ?? 0) - (AT_SECONDS[1] ?? 0);
    return { samples, cpuMsPerSecond: restSeconds > 0 ? ((cpu.at(-1) ?? 0) - (cpu[1] ?? 0)) / restSeconds : NaN };
  } finally {
    child.kill('SIGTERM');
    await new Promise((resolve) => (child.exitCode === null ? child.once('exit', resolve) : resolve()));
    await rm(dir, { recursive: true, force: true });
  }
}

const rows = [];
for (let start = 0; start < STARTS; start += 1) rows.push(await oneStart(18_300 + start));
console.log(`| start | ${AT_SECONDS.map((seconds) => `${seconds} s`).join(' | ')} | CPU ms/s at rest |`);
console.log(`|---|${AT_SECONDS.map(() => '--:').join('|')}|--:|`);
rows.forEach(({ samples, cpuMsPerSecond }, index) => console.log(`| ${index + 1} | ${samples.map((mib) => mib.toFixed(0)).join(' | ')} | ${cpuMsPerSecond.toFixed(1)} |`));
