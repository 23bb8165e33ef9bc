/**
 * `node bench/gateway-cpu.js`: the gateway alone under the benchmark's load, reporting CPU µs per
 * request (non-streamed and streamed) — the steadiest figure when the machine is shared, for
 * checking a change to the hot path quickly. BENCH_SECONDS / BENCH_WARMUP_SECONDS / BENCH_CONNECTIONS apply.
 */
import { readBenchConfig } from './bench-config.js';
import { replyBody, streamBody } from './chat-bodies.js';
import { measureReplies } from './reply-load.js';
import { startService } from './service-process.js';
import { measureStreams } from './stream-load.js';

const config = readBenchConfig();
const sim = await startService('serve-simulator.js');
const gateway = await startService('serve-gateway.js', { env: { BENCH_SIM_URL: sim.info.url } });
try {
  const load = {
    url: `${gateway.info.url}/api/v1/chat/completions`,
    headers: { authorization: `Bearer ${gateway.info.key}` },
    connections: config.connections,
  };
  for (const [mode, measure, body] of [['non-streamed', measureReplies, replyBody], ['streamed', measureStreams, streamBody]]) {
    await measure({ ...load, body: body(gateway.info.model), seconds: config.warmupSeconds });
    const before = await gateway.cpu();
    const result = await measure({ ...load, body: body(gateway.info.model), seconds: config.seconds });
    const after = await gateway.cpu();
    const micros = after.user + after.system - before.user - before.system;
    console.log(`${mode}: ${result.rps.toFixed(0)} req/s, ${(micros / Math.max(1, result.count)).toFixed(0)} CPU µs/req, ${result.failed ?? 0} failed`);
  }
} finally {
  await gateway.stop();
  await sim.stop();
}
