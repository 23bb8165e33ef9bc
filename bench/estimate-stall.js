/**
 * `node bench/estimate-stall.js`: can one request's token estimate stall every other request?
 * The gateway runs as in the other benchmarks (its own process, the one-model catalogue with a
 * 32,768-token window, so these prompts are estimated and then refused without reaching the
 * simulator). A probe (key-probe.js, its own thread) sends `GET /api/v1/key` back to back the whole
 * time; one at a time, each body of stall-bodies.js goes to `/chat/completions` and to
 * `/messages/count_tokens`. For each, the table gives the reply status, how long the body took from
 * the first byte sent to the last byte of the reply, and the latency of the probes in flight
 * meanwhile, under the probe's latency on the idle gateway; and, measured apart in this process
 * before the gateway starts, how long the prompt estimate alone takes on the case's messages (what
 * of a stall is the estimate's; the rest is reading, parsing and checking the body).
 *
 * BENCH_STALL_CASES: comma-separated case numbers to run (default all, numbered as printed);
 * BENCH_STALL_TIMEOUT_SECONDS: give up on one body after this long (default 120).
 * Needs `npm run build` first.
 */
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { Pool } from 'undici';
import { percentile } from './latency-summary.js';
import { estimatePromptTokens } from '../dist/core/token-estimate.js';
import { startService } from './service-process.js';
import { STALL_CASES, STALL_ROUTES } from './stall-bodies.js';

const IDLE_SECONDS = 3;
const timeoutSeconds = Number(process.env.BENCH_STALL_TIMEOUT_SECONDS ?? 120);
const chosen = process.env.BENCH_STALL_CASES?.split(',').map((item) => Number(item.trim()));

/** The probe in its own thread; `stop()` resolves with every [start, duration, ok] record. */
async function startProbe(url, key) {
  const worker = new Worker(new URL('key-probe.js', import.meta.url), { workerData: { url, key } });
  const records = new Promise((resolve, reject) => {
    worker.on('message', (message) => {
      if (Array.isArray(message)) resolve(message);
    });
    worker.once('error', reject);
  });
  await new Promise((resolve) => worker.once('message', resolve));
  return {
    async stop() {
      worker.postMessage('stop');
      const all = await records;
      await worker.terminate();
      return all;
    },
  };
}

/** Probes that were in flight at some moment of [from, to]. */
function probesDuring(records, from, to) {
  return records.filter(([start, ms]) => start <= to && start + ms >= from);
}

function now() {
  return performance.timeOrigin + performance.now();
}

async function sendBody(pool, key, route, body) {
  const startedAt = performance.now();
  try {
    const response = await pool.request({
      path: `/api/v1${route}`,
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body,
      headersTimeout: timeoutSeconds * 1000,
      bodyTimeout: timeoutSeconds * 1000,
    });
    await response.body.dump();
    return { status: String(response.statusCode), ms: performance.now() - startedAt };
  } catch (error) {
    return { status: error.code === 'UND_ERR_HEADERS_TIMEOUT' ? 'timeout' : 'failed', ms: performance.now() - startedAt };
  }
}

/** Milliseconds the prompt estimate takes on the messages of `body`, as the gateway parsed them. */
function timeEstimate(body) {
  const { messages } = JSON.parse(body);
  const startedAt = performance.now();
  estimatePromptTokens(messages);
  return performance.now() - startedAt;
}

function row(cells) {
  return `| ${cells.join(' | ')} |`;
}

function probeCells(probes) {
  const sorted = Float64Array.from(probes.map(([, ms]) => ms)).sort();
  const ms = (value) => (Number.isNaN(value) ? '–' : value.toFixed(1));
  const failed = probes.filter(([, , ok]) => !ok).length;
  return [ms(percentile(sorted, 0.5)), ms(percentile(sorted, 0.99)), ms(sorted.at(-1) ?? Number.NaN), String(sorted.length), String(failed)];
}

const cases = [...STALL_CASES.entries()].filter(([index]) => !chosen || chosen.includes(index + 1));

// The estimate alone, first, while nothing else runs in this process: the fastest of two variants
// of each body (2 and 3: never sent, so the gateway's tokenizer has not cached them either).
estimatePromptTokens([{ role: 'user', content: 'Warm the tokenizer up before anything is timed.' }]);
const estimateMs = new Map(cases.map(([index, stallCase]) => {
  const times = [2, 3].map((variant) => timeEstimate(STALL_ROUTES[1].body('any', stallCase.messages(variant))));
  return [index, Math.min(...times)];
}));

const sim = await startService('serve-simulator.js');
const gateway = await startService('serve-gateway.js', { env: { BENCH_SIM_URL: sim.info.url } });
const pool = new Pool(gateway.info.url, { connections: 1 });
const rows = [];
const probe = await startProbe(gateway.info.url, gateway.info.key);
let records = [];
try {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const idle = [now(), 0];
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  idle[1] = now();
  rows.push({ cells: ['', `(idle, ${IDLE_SECONDS} s)`, '', '', '', ''], window: idle });
  for (const [index, stallCase] of cases) {
    for (const [variant, { route, body: wrap }] of STALL_ROUTES.entries()) {
      const body = wrap(gateway.info.model, stallCase.messages(variant));
      const from = now();
      const sent = await sendBody(pool, gateway.info.key, route, body);
      const cells = [String(index + 1), stallCase.name, route, sent.status, sent.ms.toFixed(0), (estimateMs.get(index) ?? 0).toFixed(1)];
      rows.push({ cells, window: [from, now()] });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
} finally {
  records = await probe.stop();
  await pool.destroy();
  await gateway.stop();
  await sim.stop();
}
console.log(row(['#', 'body', 'route', 'status', 'body handled in ms', 'estimate alone ms', 'probe p50 ms', 'probe p99 ms', 'probe max ms', 'probes', 'failed']));
console.log(row(['---:', '---', '---', '---', '---:', '---:', '---:', '---:', '---:', '---:', '---:']));
for (const { cells, window } of rows) console.log(row([...cells, ...probeCells(probesDuring(records, ...window))]));
