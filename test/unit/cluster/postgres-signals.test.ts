import type { CompiledQuery } from 'kysely';
import pg from 'pg';
import pino from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount, revokeKey } from '../../../src/accounts/accounts.js';
import { KeyCache } from '../../../src/accounts/key-cache.js';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import type { BackgroundTask } from '../../../src/cluster/background.js';
import type { FleetSignal, FleetSignals } from '../../../src/cluster/fleet-signals.js';
import { postgresSignals } from '../../../src/cluster/postgres-signals.js';
import { followFleet } from '../../../src/runtime/fleet-caches.js';
import { GatewayMetrics } from '../../../src/runtime/metrics.js';
import { MemoryOverrunCounter } from '../../../src/stats/overrun-counter.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE, TEST_POSTGRES_URL, type ScratchDatabase } from '../../support/store-engines.js';

const logger = pino({ level: 'silent' });

/** Resolves once `condition` holds, checking every 5 ms; fails after `ms`. */
async function until(condition: () => boolean, ms = 3_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('the condition did not come true in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

describe.skipIf(!POSTGRES_REACHABLE)('fleet signals over PostgreSQL notices (no Redis)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  async function database(): Promise<ScratchDatabase> {
    const scratch = await freshPostgresDatabase();
    cleanups.push(() => scratch.drop());
    return scratch;
  }

  async function store(url: string): Promise<Store> {
    const opened = await openStore(url);
    cleanups.push(() => opened.close());
    return opened;
  }

  async function started(signals: FleetSignals & BackgroundTask): Promise<FleetSignals> {
    await signals.start();
    cleanups.push(() => signals.stop());
    return signals;
  }

  function heardBy(signals: FleetSignals): FleetSignal[] {
    const heard: FleetSignal[] = [];
    for (const signal of ['keys', 'catalogue', 'figures'] as const) signals.on(signal, () => heard.push(signal));
    return heard;
  }

  it('a key change is told by the transaction that commits it, from whichever process, to every instance listening', async () => {
    const { url } = await database();
    const [first, second, cli] = [await store(url), await store(url), await store(url)];
    const heard = [heardBy(await started(postgresSignals(first, { instanceId: 'first', logger }))), heardBy(await started(postgresSignals(second, { instanceId: 'second', logger })))];
    const account = await createAccount(cli, { name: 'Ada' });
    expect(await revokeKey(cli, { id: account.keyId })).toBe(true);
    await until(() => heard.every((signals) => signals.includes('keys')));
    expect(heard).toEqual([['keys'], ['keys']]);
  });

  it('a write that rolls back tells nothing', async () => {
    const { url } = await database();
    const [server, cli] = [await store(url), await store(url)];
    const heard = heardBy(await started(postgresSignals(server, { instanceId: 'server', logger })));
    const account = await createAccount(cli, { name: 'Ada' });
    await expect(cli.write(async (tx) => {
      await revokeKey({ ...cli, write: (work) => work(tx) }, { id: account.keyId });
      throw new Error('rolled back');
    })).rejects.toThrow('rolled back');
    // a later change is heard; the one rolled back before it never was
    await revokeKey(cli, { id: account.keyId });
    await until(() => heard.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual(['keys']);
  });

  it('figures and catalogue signals reach the other instances, not the one that sent them', async () => {
    const { url } = await database();
    const [first, second] = [await store(url), await store(url)];
    const sender = await started(postgresSignals(first, { instanceId: 'first', logger }));
    const delays: Array<[FleetSignal, number]> = [];
    const receiver = await started(postgresSignals(second, { instanceId: 'second', logger, heard: (signal, delayMs) => delays.push([signal, delayMs]) }));
    const [sent, received] = [heardBy(sender), heardBy(receiver)];
    sender.publish('figures');
    sender.publish('catalogue');
    await until(() => received.length === 2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(received).toEqual(['figures', 'catalogue']);
    expect(sent).toEqual([]);
    expect(delays.map(([signal]) => signal)).toEqual(['figures', 'catalogue']);
  });

  it('instances on another schema of the same database hear nothing of this one', async () => {
    const [here, elsewhere] = [await database(), await database()];
    const [server, other] = [await store(here.url), await store(elsewhere.url)];
    const heard = heardBy(await started(postgresSignals(other, { instanceId: 'other', logger })));
    const herd = heardBy(await started(postgresSignals(server, { instanceId: 'server', logger })));
    const account = await createAccount(server, { name: 'Ada' });
    await revokeKey(server, { id: account.keyId });
    await until(() => herd.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual([]);
  });

  it('schemas named longer than a channel may be: key changes still commit and are heard, and two names alike in their first 52 bytes stay apart', async () => {
    const stem = `long_${process.pid}_${Date.now()}_`.padEnd(55, 'x');
    const urls: string[] = [];
    for (const end of ['aaaaa', 'bbbbb']) {
      const schema = stem + end;
      const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
      await admin.connect();
      await admin.query(`CREATE SCHEMA ${schema}`).finally(() => admin.end());
      cleanups.push(async () => {
        const cleaner = new pg.Client({ connectionString: TEST_POSTGRES_URL });
        await cleaner.connect();
        await cleaner.query(`DROP SCHEMA ${schema} CASCADE`).finally(() => cleaner.end());
      });
      const url = new URL(TEST_POSTGRES_URL);
      url.searchParams.set('options', `-c search_path=${schema}`);
      urls.push(url.toString());
    }
    const [server, other] = [await store(urls[0]!), await store(urls[1]!)];
    const herd = heardBy(await started(postgresSignals(server, { instanceId: 'server', logger })));
    const heard = heardBy(await started(postgresSignals(other, { instanceId: 'other', logger })));
    const account = await createAccount(server, { name: 'Ada' });
    expect(await revokeKey(server, { id: account.keyId })).toBe(true);
    await until(() => herd.includes('keys'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(heard).toEqual([]);
  });

  it('a listening connection that is lost is opened again, and `listening` says so meanwhile', async () => {
    const { url } = await database();
    const server = await store(url);
    const signals = await started(postgresSignals(server, { instanceId: 'server', logger }));
    const changes: boolean[] = [];
    signals.onListening((listening) => changes.push(listening));
    expect(signals.listening).toBe(true);
    const admin = new pg.Client({ connectionString: TEST_POSTGRES_URL });
    await admin.connect();
    try {
      const schema = new URL(url).searchParams.get('options')?.split('=')[1] ?? '';
      const { rowCount } = await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query = $1`, [`LISTEN "switchyard:${schema}"`]);
      expect(rowCount).toBe(1);
    } finally {
      await admin.end();
    }
    await until(() => changes.length === 2);
    expect(changes).toEqual([false, true]);
    const heard = heardBy(signals);
    const account = await createAccount(server, { name: 'Ada' });
    await revokeKey(server, { id: account.keyId });
    await until(() => heard.includes('keys'));
  });

  it('a key cache that hears them reads the key revision only when told, and refuses a key revoked elsewhere once told', async () => {
    const { url } = await database();
    const [server, cli] = [await store(url), await store(url)];
    let revisionReadings = 0;
    const counted = new Proxy(server.db, {
      get(target, property) {
        if (property === 'executeQuery') {
          return (query: CompiledQuery) => {
            if (query.sql.includes('key_revision')) revisionReadings += 1;
            return target.executeQuery(query);
          };
        }
        const value: unknown = Reflect.get(target, property);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const fleet = followFleet({ store: { ...server, db: counted }, redis: undefined, instanceId: 'server', logger, metrics: new GatewayMetrics(new MemoryOverrunCounter()), figures: { refresh: async () => undefined } });
    for (const task of fleet.tasks) {
      await task.start();
      cleanups.push(() => task.stop());
    }
    expect(fleet.signals.listening).toBe(true);
    const account = await createAccount(cli, { name: 'Ada' });
    const keys = createKeyDirectory(server, { cache: new KeyCache(), revision: fleet.keyRevision });
    expect(await keys.authenticate(account.key)).not.toBeNull();
    const before = revisionReadings;
    for (let turn = 0; turn < 20; turn += 1) {
      expect(await keys.authenticate(account.key)).not.toBeNull();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(revisionReadings - before).toBe(0);
    let told = false;
    fleet.signals.on('keys', () => {
      told = true;
    });
    await revokeKey(cli, { id: account.keyId });
    await until(() => told);
    expect(await keys.authenticate(account.key)).toBeNull();
    expect(revisionReadings - before).toBe(1);
  });
});
