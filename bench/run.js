/**
 * `npm run bench`: the simulator, a bare reverse proxy and the gateway, each in its own process,
 * under the same closed-loop load one after another; prints a Markdown table and keeps it in
 * bench/README.md. See bench/README.md for the method.
 */
import { readBenchConfig } from './bench-config.js';
import { replyBody, streamBody } from './chat-bodies.js';
import { describeMachine } from './machine.js';
import { runMemory } from './memory-run.js';
import { writeReadmeResults } from './readme-results.js';
import { measureReplies } from './reply-load.js';
import { renderReport } from './results-report.js';
import { startService } from './service-process.js';
import { measureStreams } from './stream-load.js';
import { checkTarget } from './target-check.js';

const MODES = [
  { mode: 'non-streamed', measure: measureReplies, body: replyBody },
  { mode: 'streamed', measure: measureStreams, body: streamBody },
];

async function startServices() {
  const sim = await startService('serve-simulator.js');
  const env = { BENCH_SIM_URL: sim.info.url };
  const proxy = await startService('serve-bare-proxy.js', { env });
  const gateway = await startService('serve-gateway.js', { env, execArgv: ['--expose-gc'] });
  const targets = [
    { name: 'simulator direct', service: sim, url: `${sim.info.url}/v1/chat/completions`, headers: {}, model: 'chat' },
    { name: 'bare proxy', service: proxy, url: `${proxy.info.url}/v1/chat/completions`, headers: {}, model: 'chat' },
    {
      name: 'gateway',
      service: gateway,
      url: `${gateway.info.url}/api/v1/chat/completions`,
      headers: { authorization: `Bearer ${gateway.info.key}` },
      model: gateway.info.model,
    },
  ];
  return { services: [gateway, proxy, sim], gateway, targets };
}

async function measure(kind, target, options) {
  const load = { url: target.url, headers: target.headers, body: kind.body(target.model), connections: options.connections };
  await kind.measure({ ...load, seconds: options.warmupSeconds });
  const cpuBefore = await target.service.cpu();
  const result = await kind.measure({ ...load, seconds: options.seconds });
  const cpuAfter = await target.service.cpu();
  const cpuMicros = cpuAfter.user + cpuAfter.system - cpuBefore.user - cpuBefore.system;
  result.cpuPerRequest = cpuMicros / Math.max(1, result.count);
  console.error(`  ${kind.mode} · ${target.name} · c=${options.connections}: ${result.rps.toFixed(0)} req/s, p50 ${result.p50.toFixed(2)} ms`);
  return { mode: kind.mode, target: target.name, result };
}

async function benchmark(config, running) {
  for (const target of running.targets) await checkTarget(target);
  const throughput = [];
  for (const kind of MODES) {
    for (const target of running.targets) throughput.push(await measure(kind, target, config));
  }
  const firstByte = [];
  for (const target of running.targets) firstByte.push(await measure(MODES[1], target, { ...config, connections: 1 }));
  console.error(`  memory run: ${config.memorySeconds} s on the gateway`);
  const gatewayTarget = running.targets.find((target) => target.name === 'gateway');
  const memory = await runMemory(running.gateway, gatewayTarget, { seconds: config.memorySeconds, connections: config.connections });
  return { throughput, firstByte, memory };
}

async function main() {
  const config = readBenchConfig();
  const machine = describeMachine();
  const running = await startServices();
  let results;
  try {
    results = await benchmark(config, running);
  } finally {
    for (const service of running.services) await service.stop();
  }
  const report = renderReport({ machine, config, ...results });
  console.log(report);
  if (config.writeReadme) await writeReadmeResults(report);
}

await main();
