import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer, connect, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { acceptedBatch, batchUntil, chatBody, costOfLines, endedWithLines, exchange, namedGenerations, type BatchCaller, type ResultLineView } from '../e2e/batch-client.js';
import { catalogueYaml } from '../e2e/harness.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE, TEST_POSTGRES_URL, type ScratchDatabase } from '../support/store-engines.js';
import { exited } from './gateway-child.js';
import { invariantBreaches, ledgerSnapshot } from './ledger-snapshot.js';
import { seededRandom } from './seeded-random.js';

/**
 * kill -9 of a gateway while it runs a batch, with a second gateway on the same database and key
 * store: once the first's lease lapses the second takes the account over, and every request ends
 * with exactly one line, no generation is charged twice, the charges are what the lines name, and
 * no hold stays open. Then a key store outage in the middle of a batch: the batch waits, loses
 * nothing, and completes once the key store is back. The moment of the kill is drawn from a seed it
 * prints; BATCH_CRASH_SEED=N replays one.
 */

const SEED = process.env.BATCH_CRASH_SEED === undefined ? randomInt(2 ** 31) : Number(process.env.BATCH_CRASH_SEED);
const MODEL = 'acme/chat';
const REQUESTS = 48;
/** A short lease and a quick runner, so the takeover comes within seconds; gone instances are known by their pid. */
const RECOVERY: Partial<RecoverySettings> = { batchLeaseMs: 1_500, batchPollMs: 100, heartbeatMs: 500, staleAfterMs: 600_000, reapIntervalMs: 300 };
const MASTER_KEY = randomBytes(32).toString('base64');
const REGISTER_TYPESCRIPT = new URL('../support/typescript-child/register.mjs', import.meta.url).pathname;
const BATCH_GATEWAY = new URL('./gateway-process.ts', import.meta.url).pathname;

let sim: RunningSimulator;
let dir: string;
let configPath: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  console.log(`batch-crash seed ${SEED} (replay with BATCH_CRASH_SEED=${SEED})`);
  sim = await startSimulator({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'switchyard-batch-crash-'));
  configPath = join(dir, 'catalogue.yaml');
  await writeFile(configPath, catalogueYaml(sim.url, [{ id: MODEL, endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=4' }] }]));
});

afterAll(async () => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await Promise.all(children.map(exited));
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface BatchGateway {
  child: ChildProcess;
  url: string;
  instanceId: string;
  /** Its log lines (warnings and up) as they arrive. */
  logs: string[];
}

/** A gateway in a process of its own on `databaseUrl` and `keyStoreUrl`, once it listens. */
async function spawnBatchGateway(databaseUrl: string, keyStoreUrl: string): Promise<BatchGateway> {
  const child = spawn(process.execPath, ['--import', REGISTER_TYPESCRIPT, BATCH_GATEWAY, configPath, databaseUrl, keyStoreUrl], {
    env: { ...process.env, SWITCHYARD_TEST_RECOVERY: JSON.stringify(RECOVERY), SWITCHYARD_MASTER_KEY: MASTER_KEY },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  const logs: string[] = [];
  if (!child.stdout || !child.stderr) throw new Error('the gateway process has no stdout or stderr');
  createInterface({ input: child.stderr }).on('line', (line) => logs.push(line));
  const lines = createInterface({ input: child.stdout });
  const first = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve);
    child.once('exit', (code, signal) => reject(new Error(`gateway process exited (${code ?? signal}) before listening:\n${logs.join('\n')}`)));
  });
  lines.close();
  const announced = JSON.parse(first) as { url: string; instanceId: string };
  return { child, url: announced.url, instanceId: announced.instanceId, logs };
}

function alive(gateway: BatchGateway): boolean {
  return gateway.child.exitCode === null && gateway.child.signalCode === null;
}

function callerOf(gateway: BatchGateway, key: string): BatchCaller {
  return { baseUrl: `${gateway.url}/api/v1`, key };
}

/** How many of the batch's requests have their line recorded. */
async function recordedRequests(store: Store, batchId: string): Promise<number> {
  const rows = await store.db.selectFrom('batch_requests').select('seq').where('batch_id', '=', batchId).where('state', 'in', ['settled', 'failed']).execute();
  return rows.length;
}

/**
 * `count` chat requests the simulator holds a moment each (`holdMs` drawn per request), so the batch
 * is still running when something happens to it.
 */
function slowRequests(count: number, holdMs: () => number = () => 200): Array<{ custom_id: string; body: Record<string, unknown> }> {
  return Array.from({ length: count }, (_, index) => ({ custom_id: `q-${index}`, body: chatBody(`Question ${index} [[sim ttft=${holdMs()}]]`) }));
}

/**
 * Every request has exactly one line, in submission order, answered or failed as a lost reply that
 * names its charge; no generation is charged twice; the account's balance dropped by what the lines'
 * generations cost, every charge is one a line names, and no hold is left open.
 */
async function expectEveryRequestOnce(store: Store, caller: BatchCaller, accountId: string, lines: readonly ResultLineView[]): Promise<void> {
  expect(lines.map((line) => line.custom_id)).toEqual(slowRequests(REQUESTS).map((request) => request.custom_id));
  for (const line of lines) {
    if (line.response) expect(line.response.status_code, JSON.stringify(line)).toBe(200);
    else expect(line.error, JSON.stringify(line)).toMatchObject({ type: 'server', request_id: expect.stringMatching(/^gen-/) });
  }
  const named = namedGenerations(lines);
  expect(new Set(named).size).toBe(named.length);
  const ledger = await ledgerSnapshot(store, accountId);
  expect(invariantBreaches(ledger), `seed ${SEED}`).toEqual([]);
  expect(ledger.holds).toEqual([]);
  expect(ledger.reserved).toBe(0n);
  const charged = [...ledger.charges].filter(([, amounts]) => amounts.some((amount) => amount > 0n)).map(([id]) => id);
  expect(charged.filter((id) => !named.includes(id)), `charges no line names (seed ${SEED})`).toEqual([]);
  expect(ledger.deposits - ledger.balance).toBe(await costOfLines(caller, lines));
  const pending = await store.db.selectFrom('generations').select('id').where('account_id', '=', accountId).where('status', '=', 'pending').execute();
  expect(pending).toEqual([]);
}

interface Places {
  database: ScratchDatabase;
  keyStore: ScratchDatabase;
}

const ENGINES: Array<{ name: string; places: () => Promise<Places> }> = [
  {
    name: 'sqlite',
    places: async () => {
      const stamp = `${Date.now()}-${randomInt(1e6)}`;
      const none = async () => undefined;
      return { database: { url: `sqlite:${join(dir, `data-${stamp}.db`)}`, drop: none }, keyStore: { url: `sqlite:${join(dir, `keys-${stamp}.db`)}`, drop: none } };
    },
  },
  ...(POSTGRES_REACHABLE ? [{ name: 'postgres', places: async () => ({ database: await freshPostgresDatabase(), keyStore: await freshPostgresDatabase() }) }] : []),
];

describe.each(ENGINES)('a gateway killed while it runs a batch, on $name', (engine) => {
  it('another gateway takes the account over after the lease: one line per request, nothing charged twice, every hold released', async () => {
    const random = seededRandom(SEED);
    const places = await engine.places();
    const store = await openStore(places.database.url);
    try {
      const account = await createAccount(store, { name: 'batch crash', creditsUsd: '10' });
      // two gateways on one database and key store; the one that takes the account is killed
      const gateways = [await spawnBatchGateway(places.database.url, places.keyStore.url), await spawnBatchGateway(places.database.url, places.keyStore.url)];
      const requests = slowRequests(REQUESTS, () => 300 + Math.floor(random() * 900));
      const batch = await acceptedBatch(callerOf(gateways[0] as BatchGateway, account.key), { endpoint: '/v1/chat/completions', requests });
      // the kill comes while at least two requests are still queued (8 are in flight at most)
      const killAfter = 1 + Math.floor(random() * (REQUESTS - 10));
      while ((await recordedRequests(store, batch.id)) < killAfter) await sleep(5);
      const lease = await store.db.selectFrom('batch_leases').selectAll().where('account_id', '=', account.accountId).executeTakeFirstOrThrow();
      const first = gateways.find((gateway) => gateway.instanceId === lease.holder);
      const second = gateways.find((gateway) => gateway.instanceId !== lease.holder);
      if (!first || !second) throw new Error(`the lease is held by ${lease.holder}, neither gateway`);
      const killedAt = Date.now();
      first.child.kill('SIGKILL');
      await exited(first.child);
      const atKill = await recordedRequests(store, batch.id);
      expect(invariantBreaches(await ledgerSnapshot(store, account.accountId)), `ledger at the kill (seed ${SEED})`).toEqual([]);

      const caller = callerOf(second, account.key);
      const { batch: ended, lines } = await endedWithLines(caller, batch.id);
      expect(ended.status).toBe('completed');
      const answered = lines.filter((line) => line.response !== null).length;
      expect(ended.request_counts).toEqual({ total: REQUESTS, completed: answered, failed: REQUESTS - answered });
      await expectEveryRequestOnce(store, caller, account.accountId, lines);

      // the second sent only once the first's lease had lapsed after its death
      const sentBySecond = await store.db.selectFrom('generations').select(['id', 'created_at']).where('account_id', '=', account.accountId).where('instance_id', '=', second.instanceId).execute();
      expect(sentBySecond.length).toBeGreaterThan(0);
      for (const row of sentBySecond) expect(row.created_at).toBeGreaterThan(killedAt);
      expect(alive(second)).toBe(true);
      console.log(`batch-crash on ${engine.name}: seed ${SEED}, killed after ${atKill} of ${REQUESTS} lines (drawn ${killAfter}); ` +
        `${answered} answered, ${REQUESTS - answered} lost replies, ${sentBySecond.length} sent by the second gateway`);
      second.child.kill('SIGTERM');
      await exited(second.child);
    } finally {
      await store.close();
      await places.database.drop();
      await places.keyStore.drop();
    }
  }, 60_000);
});

/** A TCP proxy in front of PostgreSQL that can cut every connection and refuse new ones, then let them through again. */
interface Outage {
  port: number;
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

async function outageProxy(target: { host: string; port: number }): Promise<Outage> {
  let down = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    if (down) {
      client.destroy();
      return;
    }
    const upstream = connect(target.port, target.host);
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', end).on('close', end);
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    cut() {
      down = true;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      down = false;
    },
    close: () => new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

describe.skipIf(!POSTGRES_REACHABLE)('a key store outage in the middle of a batch', () => {
  it('stops the batch without losing anything: new submissions are the 503, and the batch completes once the key store is back', async () => {
    const keyStore = await freshPostgresDatabase();
    const direct = new URL(TEST_POSTGRES_URL);
    const proxy = await outageProxy({ host: direct.hostname, port: Number(direct.port || 5432) });
    const proxied = new URL(keyStore.url);
    proxied.hostname = '127.0.0.1';
    proxied.port = String(proxy.port);
    const databaseUrl = `sqlite:${join(dir, `outage-${Date.now()}.db`)}`;
    const store = await openStore(databaseUrl);
    try {
      const account = await createAccount(store, { name: 'key store outage', creditsUsd: '10' });
      const gateway = await spawnBatchGateway(databaseUrl, proxied.toString());
      const caller = callerOf(gateway, account.key);
      const batch = await acceptedBatch(caller, { endpoint: '/v1/chat/completions', requests: slowRequests(REQUESTS) });
      await batchUntil(caller, batch.id, (seen) => seen.status === 'in_progress', 20);
      proxy.cut();

      // the requests run on (their seal is open); the batch cannot end while its results cannot be sealed
      while ((await recordedRequests(store, batch.id)) < REQUESTS && alive(gateway)) await sleep(20);
      expect(alive(gateway), `the gateway died in the outage:\n${gateway.logs.join('\n')}`).toBe(true);
      // it tries to end the batch and says so in its log (or a few runner rounds pass)
      const seen = gateway.logs.length;
      for (let round = 0; round < 250 && gateway.logs.length === seen && alive(gateway); round += 1) await sleep(20);
      expect(alive(gateway), `the gateway died in the outage:\n${gateway.logs.join('\n')}`).toBe(true);
      const during = await store.db.selectFrom('batches').select(['status', 'results_file_id']).where('id', '=', batch.id).executeTakeFirstOrThrow();
      expect(during).toEqual({ status: 'in_progress', results_file_id: null });

      const refused = await exchange(caller, { path: '/batches', body: { endpoint: '/v1/chat/completions', requests: slowRequests(1) } });
      expect(refused.status, refused.text).toBe(503);
      expect((refused.json as { error: { metadata: { error_type: string } } }).error.metadata.error_type).toBe('server');
      expect(await store.db.selectFrom('batches').select('id').where('account_id', '=', account.accountId).execute()).toEqual([{ id: batch.id }]);

      proxy.restore();
      const { batch: ended, lines } = await endedWithLines(caller, batch.id);
      expect(ended).toMatchObject({ status: 'completed', request_counts: { total: REQUESTS, completed: REQUESTS, failed: 0 } });
      await expectEveryRequestOnce(store, caller, account.accountId, lines);
      expect(alive(gateway)).toBe(true);
      gateway.child.kill('SIGTERM');
      await exited(gateway.child);
    } finally {
      await store.close();
      await proxy.close();
      await keyStore.drop();
    }
  }, 60_000);
});
