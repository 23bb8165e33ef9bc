/**
 * `node bench/compare-gateways.js DIR_A DIR_B`: the CPU µs per request of two builds of the gateway
 * (two checkouts, each built with `npm run build`), measured together: both run at once against one
 * simulator, and the load goes to one, then the other, in short bursts (in turn, non-streamed then
 * streamed), so that both see the same background load. On a shared machine this gives a steadier
 * ratio than two `gateway-cpu.js` runs one after the other. Requests per second are printed too: time
 * the gateway spends waiting (on the disk, say) costs no CPU but still lowers them. BENCH_COMPARE_ROUNDS (default 10) and
 * BENCH_COMPARE_BURST_SECONDS (default 2) set the rounds and the length of each burst;
 * BENCH_CONNECTIONS applies. BENCH_UPSTREAM_URL names an OpenAI-compatible upstream already running
 * (the peers harness' mock-upstream.mjs, which sends a stream's chunks one event-loop turn apart) to
 * serve both instead of the simulator.
 */
import { resolve } from 'node:path';
import { readBenchConfig } from './bench-config.js';
import { replyBody, streamBody } from './chat-bodies.js';
import { measureReplies } from './reply-load.js';
import { startService } from './service-process.js';
import { measureStreams } from './stream-load.js';

const MODES = [
  { name: 'non-streamed', measure: measureReplies, body: replyBody },
  { name: 'streamed', measure: measureStreams, body: streamBody },
];

const dirs = process.argv.slice(2, 4).map((dir) => resolve(dir));
if (dirs.length !== 2) throw new Error('usage: node bench/compare-gateways.js DIR_A DIR_B');
const rounds = Number(process.env.BENCH_COMPARE_ROUNDS ?? 10);
const burstSeconds = Number(process.env.BENCH_COMPARE_BURST_SECONDS ?? 2);
const { connections } = readBenchConfig();

/** One burst of `mode` on `gateway`; adds its CPU time and request count when `tally` is given. */
async function burst(gateway, mode, seconds, tally) {
  const { url, key, model } = gateway.service.info;
  const before = await gateway.service.cpu();
  const result = await mode.measure({
    url: `${url}/api/v1/chat/completions`,
    headers: { authorization: `Bearer ${key}` },
    body: mode.body(model),
    connections,
    seconds,
  });
  const after = await gateway.service.cpu();
  if (!tally) return;
  const entry = tally[mode.name];
  entry.micros += after.user + after.system - before.user - before.system;
  entry.count += result.count;
  entry.failed += result.failed ?? result.errors ?? 0;
}

const upstream = process.env.BENCH_UPSTREAM_URL;
const sim = upstream ? undefined : await startService('serve-simulator.js');
const gateways = [];
try {
  for (const dir of dirs) {
    const service = await startService(`${dir}/bench/serve-gateway.js`, { env: { BENCH_SIM_URL: upstream ?? sim.info.url } });
    const tally = Object.fromEntries(MODES.map((mode) => [mode.name, { micros: 0, count: 0, failed: 0 }]));
    gateways.push({ dir, service, tally });
  }
  for (const gateway of gateways) for (const mode of MODES) await burst(gateway, mode, 2);
  for (let round = 0; round < rounds; round += 1) {
    const order = round % 2 === 0 ? gateways : [...gateways].reverse();
    for (const mode of MODES) for (const gateway of order) await burst(gateway, mode, burstSeconds, gateway.tally);
  }
  const perRequest = (gateway, mode) => gateway.tally[mode.name].micros / Math.max(1, gateway.tally[mode.name].count);
  for (const gateway of gateways) {
    const figures = MODES.map((mode) => {
      const { count, failed } = gateway.tally[mode.name];
      return `${mode.name} ${perRequest(gateway, mode).toFixed(0)} CPU µs/req, ${(count / (rounds * burstSeconds)).toFixed(0)} req/s (${failed} failed)`;
    });
    console.log(`${gateway.dir}: ${figures.join(', ')}`);
  }
  const [a, b] = gateways;
  console.log(`B / A: ${MODES.map((mode) => `${mode.name} ${(perRequest(b, mode) / perRequest(a, mode)).toFixed(3)}`).join(', ')}`);
} finally {
  for (const gateway of gateways) await gateway.service.stop();
  await sim?.stop();
}
