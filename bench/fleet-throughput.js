/**
 * `node bench/fleet-throughput.js` (after `npm run build`): non-streamed chat through one instance,
 * then through three instances on the same PostgreSQL database and Redis, each instance a process
 * of its own and the load's connections split evenly between them, all on one funded account (the
 * hardest case: every hold and settlement moves the same account's row). Prints requests per
 * second, the gateways' and PostgreSQL's CPU per request, and the ratio.
 *
 * BENCH_DATABASE_URL (required, `postgres://…`), BENCH_REDIS_URL (required), BENCH_KEY_STORE_URL
 * (required: the key store's database on the same server); BENCH_SECONDS / BENCH_WARMUP_SECONDS /
 * BENCH_CONNECTIONS apply. BENCH_INSTANCES=1,3 (default) chooses the fleet sizes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { readBenchConfig } from './bench-config.js';
import { replyBody } from './chat-bodies.js';
import { describeMachine } from './machine.js';
import { measureReplies } from './reply-load.js';
import { startService } from './service-process.js';

for (const name of ['BENCH_DATABASE_URL', 'BENCH_REDIS_URL', 'BENCH_KEY_STORE_URL']) {
  if (!process.env[name]) throw new Error(`${name} is required (see the comment at the top of this file)`);
}
const config = readBenchConfig();
const sizes = (process.env.BENCH_INSTANCES ?? '1,3').split(',').map(Number);

/** CPU µs (user + system) of every PostgreSQL server process, from /proc. */
function postgresCpuMicros() {
  const ticks = 100;
  let total = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      if (!name.startsWith('postgres') && !name.startsWith('postmaster')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * (1_000_000 / ticks);
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

async function cpuOf(gateways) {
  const readings = await Promise.all(gateways.map((gateway) => gateway.cpu()));
  return readings.reduce((sum, reading) => sum + reading.user + reading.system, 0);
}

async function measureFleet(size, sim) {
  const gateways = [];
  try {
    for (let index = 0; index < size; index += 1) {
      const key = gateways[0]?.info.key;
      gateways.push(await startService('serve-gateway.js', { env: { BENCH_SIM_URL: sim.info.url, ...(key && { BENCH_KEY: key }) } }));
    }
    const share = Math.max(1, Math.round(config.connections / size));
    const load = (seconds) => Promise.all(gateways.map((gateway) => measureReplies({
      url: `${gateway.info.url}/api/v1/chat/completions`,
      headers: { authorization: `Bearer ${gateway.info.key}` },
      body: replyBody(gateway.info.model),
      connections: share,
      seconds,
    })));
    await load(config.warmupSeconds);
    const [gatewayBefore, postgresBefore] = [await cpuOf(gateways), postgresCpuMicros()];
    const results = await load(config.seconds);
    const [gatewayAfter, postgresAfter] = [await cpuOf(gateways), postgresCpuMicros()];
    const count = results.reduce((sum, result) => sum + result.count, 0);
    return {
      size,
      rps: results.reduce((sum, result) => sum + result.rps, 0),
      errors: results.reduce((sum, result) => sum + result.errors, 0),
      gatewayMicros: (gatewayAfter - gatewayBefore) / Math.max(1, count),
      postgresMicros: (postgresAfter - postgresBefore) / Math.max(1, count),
    };
  } finally {
    for (const gateway of gateways) await gateway.stop();
  }
}

const machine = describeMachine();
console.log(`${machine.cpu}, ${machine.cores} cores, load ${machine.loadBefore.toFixed(2)} before; ${config.connections} connections, ${config.seconds} s per run`);
const sim = await startService('serve-simulator.js');
try {
  const rows = [];
  for (const size of sizes) rows.push(await measureFleet(size, sim));
  console.log('| instances | non-streamed | gateway CPU µs/req | PostgreSQL CPU µs/req | errors |');
  console.log('|--:|--:|--:|--:|--:|');
  for (const row of rows) {
    console.log(`| ${row.size} | ${row.rps.toFixed(0)} req/s | ${row.gatewayMicros.toFixed(0)} | ${row.postgresMicros.toFixed(0)} | ${row.errors} |`);
  }
  const [first, last] = [rows[0], rows.at(-1)];
  if (first && last && first !== last) console.log(`${last.size} instances serve ${(last.rps / first.rps).toFixed(2)}× of ${first.size}`);
} finally {
  await sim.stop();
}
