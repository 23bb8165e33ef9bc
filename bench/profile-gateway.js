/**
 * `node bench/profile-gateway.js`: profiles the gateway's CPU under the benchmark's load
 * (non-streamed, then streamed, concurrency 32) after a warm-up, so start-up and JIT warm-up are
 * not in the profile; then prints the time by stage of a request (ledger, upstream call, streams,
 * HTTP, …), the modules and functions with the most self time (idle excluded) and the inclusive
 * time of the gateway's own functions. BENCH_BODY=prompt or tools profiles a large request instead
 * (a 100 KB prompt or 200 tools, non-streamed only); BENCH_MODES=replies or streams profiles one
 * mode alone (default both). BENCH_CONNECTIONS and BENCH_SECONDS set the load's connections and the
 * measured seconds per mode (default 10); BENCH_PROFILE_DIR keeps the `.cpuprofile` there for
 * Chrome DevTools (default: a temporary folder, removed afterwards). BENCH_UPSTREAM_URL names an
 * OpenAI-compatible upstream already running (the peers harness' mock-upstream.mjs, say) to serve
 * the gateway instead of the simulator.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readBenchConfig } from './bench-config.js';
import { largePromptBody, manyToolsBody, replyBody, streamBody } from './chat-bodies.js';
import { summarizeProfile } from './cpu-profile-summary.js';
import { measureReplies } from './reply-load.js';
import { startService } from './service-process.js';
import { measureStreams } from './stream-load.js';
import { checkTarget } from './target-check.js';

const LARGE_BODIES = { prompt: largePromptBody, tools: manyToolsBody };

async function loadGateway(gateway, config, seconds) {
  const target = {
    name: 'gateway',
    url: `${gateway.info.url}/api/v1/chat/completions`,
    headers: { authorization: `Bearer ${gateway.info.key}` },
    model: gateway.info.model,
  };
  await checkTarget(target);
  const load = { url: target.url, headers: target.headers, connections: config.connections, seconds };
  const large = LARGE_BODIES[process.env.BENCH_BODY ?? ''];
  if (large) {
    const replies = await measureReplies({ ...load, body: JSON.stringify(large(target.model)) });
    return `non-streamed ${replies.rps.toFixed(0)} req/s (${process.env.BENCH_BODY})`;
  }
  const modes = (process.env.BENCH_MODES ?? 'replies streams').split(/\s+/);
  const measured = [];
  if (modes.includes('replies')) measured.push(`non-streamed ${(await measureReplies({ ...load, body: replyBody(target.model) })).rps.toFixed(0)} req/s`);
  if (modes.includes('streams')) measured.push(`streamed ${(await measureStreams({ ...load, body: streamBody(target.model) })).rps.toFixed(0)} req/s`);
  return measured.join(', ');
}

function print(title, rows) {
  console.log(`\n${title}\n`);
  for (const row of rows) console.log(`${row.ms.toFixed(0).padStart(8)} ms ${row.percent.toFixed(1).padStart(5)} %  ${row.name}`);
}

async function profile(file, config) {
  const upstream = process.env.BENCH_UPSTREAM_URL;
  const sim = upstream ? undefined : await startService('serve-simulator.js');
  const gateway = await startService('serve-gateway.js', { env: { BENCH_SIM_URL: upstream ?? sim.info.url } });
  try {
    await loadGateway(gateway, config, config.warmupSeconds);
    await gateway.startProfiling();
    const throughput = await loadGateway(gateway, config, config.seconds);
    await gateway.stopProfiling(file);
    return throughput;
  } finally {
    await gateway.stop();
    await sim?.stop();
  }
}

const config = readBenchConfig();
const dir = process.env.BENCH_PROFILE_DIR ?? (await mkdtemp(join(tmpdir(), 'switchyard-profile-')));
const file = join(dir, `gateway-${Date.now()}.cpuprofile`);
const throughput = await profile(file, config);
const summary = summarizeProfile(JSON.parse(await readFile(file, 'utf8')));
const modes = LARGE_BODIES[process.env.BENCH_BODY ?? ''] ? 1 : throughput.split(', ').length;
console.log(`${throughput}; gateway main thread busy ${summary.busyMs.toFixed(0)} ms of ${modes * config.seconds} s`);
print('Time by stage of a request (each sample in the first stage its stack names, leaf up)', summary.stages);
print('Self time by module', summary.modules.slice(0, 15));
print('Self time by function', summary.functions);
print('Inclusive time of the gateway\'s own functions', summary.project);
if (process.env.BENCH_PROFILE_DIR) console.log(`\nprofile: ${file}`);
else await rm(dir, { recursive: true, force: true });
