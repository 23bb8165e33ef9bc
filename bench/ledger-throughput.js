/**
 * `node bench/ledger-throughput.js` (after `npm run build`): what one database carries of the
 * ledger alone, without HTTP: `BENCH_CONNECTIONS` callers (default 32) each take a hold and settle
 * it, again and again, for BENCH_SECONDS (default 10), through the gateway's own ledger over a pool
 * of the default size. Run once with every caller on one account (its row is the point every hold
 * and settlement passes through) and once spread over 64 accounts. Prints ledger transactions (a
 * hold or a settlement) per second and the database's CPU per transaction where it can read it.
 *
 * BENCH_DATABASE_URL: `postgres://…` (required: a database this may fill with accounts), or
 * `sqlite:PATH` for the comparison.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createAccount } from '../dist/accounts/accounts.js';
import { generationRecord } from '../dist/billing/generation-record.js';
import { createLedger } from '../dist/billing/ledger.js';
import { openStore } from '../dist/store/store.js';
import { readBenchConfig } from './bench-config.js';
import { describeMachine } from './machine.js';

const url = process.env.BENCH_DATABASE_URL;
if (!url) throw new Error('BENCH_DATABASE_URL is required (see the comment at the top of this file)');
const config = readBenchConfig();

/** CPU µs (user + system) of every PostgreSQL server process, from /proc (0 elsewhere). */
function postgresCpuMicros() {
  let total = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      if (!stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')).startsWith('postgres')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      total += (Number(fields[11]) + Number(fields[12])) * 10_000;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** The generation as admitted (pending), or as answered and charged `cost`. */
function recordOf(owner, generationId, cost) {
  return generationRecord({
    generationId,
    owner,
    asked: { model: 'bench/chat', streamed: false, attribution: {}, metadata: null },
    startedAt: Date.now(),
    estimatedPromptTokens: 12,
    ...(cost === null ? { pending: true, cost: 0n } : { finishedAt: Date.now(), finishReason: 'stop', cost }),
    costLines: [],
  });
}

/** Numbers the generations of every run of this process. */
let next = 0;

async function run(store, owners, seconds) {
  const ledger = createLedger(store, { instanceId: 'inst_bench' });
  const until = Date.now() + seconds * 1000;
  let transactions = 0;
  await Promise.all(Array.from({ length: config.connections }, async (_, caller) => {
    const owner = owners[caller % owners.length];
    while (Date.now() < until) {
      const generationId = `gen-bench-${process.pid}-${caller}-${next++}`;
      const held = await ledger.hold({ ...owner, generationId, amount: 4_000n, pending: recordOf(owner, generationId, null) });
      await ledger.settle(held, recordOf(owner, generationId, 1_500n));
      transactions += 2;
    }
  }));
  return transactions;
}

const machine = describeMachine();
console.log(`${machine.cpu}, ${machine.cores} cores, load ${machine.loadBefore.toFixed(2)} before; ${config.connections} callers, ${config.seconds} s per run, ${url.split(':')[0]}`);
const store = await openStore(url);
try {
  console.log('| accounts | ledger transactions/s | database CPU µs per transaction |');
  console.log('|--:|--:|--:|');
  for (const accounts of [1, 64]) {
    const owners = [];
    for (let index = 0; index < accounts; index += 1) {
      const created = await createAccount(store, { name: `ledger bench ${index}`, creditsUsd: '1000000' });
      owners.push({ accountId: created.accountId, workspaceId: created.workspaceId, keyId: created.keyId });
    }
    await run(store, owners, config.warmupSeconds);
    const before = postgresCpuMicros();
    const transactions = await run(store, owners, config.seconds);
    const cpu = (postgresCpuMicros() - before) / Math.max(1, transactions);
    console.log(`| ${accounts} | ${(transactions / config.seconds).toFixed(0)} | ${url.startsWith('postgres') ? cpu.toFixed(0) : '–'} |`);
  }
} finally {
  await store.close();
}
