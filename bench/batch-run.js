/**
 * `node bench/batch-run.js`: batches against the simulator answering at once.
 * - the time a batch of BENCH_BATCH_REQUESTS (default 1,000) chat requests takes from submission to
 *   `completed` (target: under 60 s with the runner's 8 in flight);
 * - the gateway's CPU per request through the batch runner against the same requests sent to the
 *   live route 8 at a time (target: the runner adds under 1 ms per request);
 * - its memory (after a full collection) at the end of each of BENCH_BATCHES (default 10) batches run
 *   one after another: flat over 10,000 requests.
 * Run `npm run build` first.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { replyBody } from './chat-bodies.js';
import { startService } from './service-process.js';

const REQUESTS = Number(process.env.BENCH_BATCH_REQUESTS ?? 1000);
const BATCHES = Number(process.env.BENCH_BATCHES ?? 10);
const IN_FLIGHT = 8;

const sim = await startService('serve-simulator.js');
const gateway = await startService('serve-gateway.js', { env: { BENCH_SIM_URL: sim.info.url } });
const api = `${gateway.info.url}/api/v1`;
const headers = { authorization: `Bearer ${gateway.info.key}`, 'content-type': 'application/json' };

async function cpuMicros() {
  const usage = await gateway.cpu();
  return usage.user + usage.system;
}

/** The same requests through the live route, IN_FLIGHT at a time; CPU µs per request. */
async function liveRoute(count) {
  const before = await cpuMicros();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next += 1;
      const response = await fetch(`${api}/chat/completions`, { method: 'POST', headers, body: replyBody(gateway.info.model) });
      if (response.status !== 200) throw new Error(`live route answered ${response.status}`);
      await response.arrayBuffer();
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  return ((await cpuMicros()) - before) / count;
}

/** One batch from submission to its end: seconds taken and CPU µs per request. */
async function batch(count) {
  const requests = Array.from({ length: count }, (_, index) => ({ custom_id: `r${index}`, body: JSON.parse(replyBody(gateway.info.model)) }));
  const before = await cpuMicros();
  const startedAt = performance.now();
  const submitted = await fetch(`${api}/batches`, { method: 'POST', headers, body: JSON.stringify({ endpoint: '/v1/chat/completions', requests }) });
  if (submitted.status !== 202) throw new Error(`POST /batches answered ${submitted.status}: ${await submitted.text()}`);
  const { id } = await submitted.json();
  for (;;) {
    await sleep(100);
    const state = await (await fetch(`${api}/batches?limit=1`, { headers })).json();
    const current = state.data.find((item) => item.id === id);
    if (current && !['validating', 'in_progress', 'cancelling'].includes(current.status)) {
      if (current.request_counts.completed !== count) throw new Error(`batch ended ${current.status} with ${JSON.stringify(current.request_counts)}`);
      break;
    }
  }
  const seconds = (performance.now() - startedAt) / 1000;
  return { seconds, cpuPerRequest: ((await cpuMicros()) - before) / count };
}

try {
  await liveRoute(200);
  const live = await liveRoute(REQUESTS);
  const first = await batch(REQUESTS);
  console.log(`batch of ${REQUESTS}: ${first.seconds.toFixed(1)} s (target < 60 s)`);
  console.log(`CPU per request: live route ${live.toFixed(0)} µs, batch ${first.cpuPerRequest.toFixed(0)} µs, runner adds ${(first.cpuPerRequest - live).toFixed(0)} µs (target < 1000 µs)`);
  const idle = await gateway.memory(true);
  console.log(`memory after the first batch: rss ${(idle.rss / 2 ** 20).toFixed(0)} MiB, heap ${(idle.heapUsed / 2 ** 20).toFixed(0)} MiB`);
  for (let round = 2; round <= BATCHES; round += 1) {
    const run = await batch(REQUESTS);
    const memory = await gateway.memory(true);
    console.log(`after ${round * REQUESTS} batch requests: ${run.seconds.toFixed(1)} s, rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`);
  }
} finally {
  await gateway.stop();
  await sim.stop();
}
