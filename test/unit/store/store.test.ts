import { Socket } from 'node:net';
import { copyFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../../src/store/database-url.js';
import { runMigrations } from '../../../src/store/migrator.js';
import { MIGRATIONS } from '../../../src/store/migrations/migration-list.js';
import { commitNow, openStore, type Db, type Store } from '../../../src/store/store.js';
import { startWalCheckpoints } from '../../../src/store/wal-checkpoints.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

const opened: Store[] = [];
const dirs: string[] = [];

async function open(url: string): Promise<Store> {
  const store = await openStore(url);
  opened.push(store);
  return store;
}

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-store-'));
  dirs.push(dir);
  return dir;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('database URLs', () => {
  it('sqlite:PATH, sqlite::memory: and postgres URLs are recognised', () => {
    expect(parseDatabaseUrl('sqlite:./data/switchyard.db')).toEqual({ engine: 'sqlite', path: './data/switchyard.db' });
    expect(parseDatabaseUrl('sqlite::memory:')).toEqual({ engine: 'sqlite', path: ':memory:' });
    expect(parseDatabaseUrl('sqlite:///var/db.sqlite')).toEqual({ engine: 'sqlite', path: '/var/db.sqlite' });
    expect(parseDatabaseUrl('postgres://u@h/db')).toEqual({ engine: 'postgres', url: 'postgres://u@h/db' });
    expect(parseDatabaseUrl('postgresql://u@h/db').engine).toBe('postgres');
  });

  it('an unsupported URL is refused naming the accepted forms', () => {
    expect(() => parseDatabaseUrl('mysql://h/db')).toThrow(/sqlite:PATH.*postgres/);
    expect(() => parseDatabaseUrl('sqlite:')).toThrow(/names no file/);
  });
});

describe('sqlite store', () => {
  it('creates the directory of a file database and runs it in WAL mode', async () => {
    const path = join(tempDir(), 'nested', 'deeper', 'switchyard.db');
    const store = await open(`sqlite:${path}`);
    expect(existsSync(path)).toBe(true);
    const mode = await sql<{ journal_mode: string }>`PRAGMA journal_mode`.execute(store.db);
    expect(mode.rows[0]?.journal_mode).toBe('wal');
  });

  it('migrations are applied once, in order, and recorded', async () => {
    const store = await open('sqlite::memory:');
    const recorded = await store.db.selectFrom('switchyard_migrations').select('id').execute();
    expect(recorded.map((row) => row.id)).toEqual(MIGRATIONS.map((migration) => migration.id));
    expect(await runMigrations(store)).toEqual([]);
  });

  it('a second store on the same file finds the schema already migrated', async () => {
    const url = `sqlite:${join(tempDir(), 'db.sqlite')}`;
    await open(url);
    const second = await open(url);
    expect(await runMigrations(second)).toEqual([]);
  });

  it('a failed write transaction leaves nothing behind', async () => {
    const store = await open('sqlite::memory:');
    const failing = store.write(async (tx) => {
      await tx.insertInto('accounts').values({ id: 'acct_x', name: 'x', balance_units: '0', reserved_units: '0', suspended: 0, created_at: 0 }).execute();
      throw new Error('boom');
    });
    await expect(failing).rejects.toThrow('boom');
    expect(await store.db.selectFrom('accounts').selectAll().execute()).toEqual([]);
  });

  it('writes queued together share a commit, and a failing one rolls back only its own changes', async () => {
    const store = await open('sqlite::memory:');
    const insert = (id: string) => store.write(async (tx) => {
      await tx.insertInto('accounts').values({ id, name: id, balance_units: '0', reserved_units: '0', suspended: 0, created_at: 0 }).execute();
      if (id === 'acct_bad') throw new Error('refused');
      return id;
    });
    const outcomes = await Promise.allSettled(['acct_1', 'acct_bad', 'acct_2', 'acct_3'].map(insert));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    const ids = (await store.db.selectFrom('accounts').select('id').orderBy('id').execute()).map((row) => row.id);
    expect(ids).toEqual(['acct_1', 'acct_2', 'acct_3']);
  });
});

describe('SQLite write-ahead log checkpoints', () => {
  /**
   * Whether the database file alone, without its log, holds the account: the log was checkpointed
   * into it. A copy taken while the checkpoint writes the file may be torn (malformed): not yet.
   */
  function inDatabaseFile(path: string, accountId: string): boolean {
    const copy = join(tempDir(), 'copy.db');
    copyFileSync(path, copy);
    const database = new BetterSqlite3(copy, { readonly: true });
    try {
      const tables = database.prepare("SELECT 1 FROM sqlite_master WHERE name = 'accounts'").get();
      return tables !== undefined && database.prepare('SELECT 1 FROM accounts WHERE id = ?').get(accountId) !== undefined;
    } catch (error) {
      if (error instanceof Error && /malformed/.test(error.message)) return false;
      throw error;
    } finally {
      database.close();
    }
  }

  it('the key store and the admin CLI checkpoint as SQLite does by default, every 1,000 pages of log', async () => {
    const store = await open(`sqlite:${join(tempDir(), 'keys.db')}`);
    expect(store.sqlite?.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
  });

  it('a file database has its log copied into it by a thread of its own, within a second; its own connection only far behind', async () => {
    const path = join(tempDir(), 'wal.db');
    const store = await openStore(`sqlite:${path}`, { checkpointThread: true });
    opened.push(store);
    expect(store.sqlite?.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    await store.write((tx) => tx.insertInto('accounts').values({ id: 'acct_1', name: 'Ada', balance_units: '0', reserved_units: '0', suspended: 0, created_at: 0 }).execute());
    const deadline = Date.now() + 2_000;
    let checkpointed = inDatabaseFile(path, 'acct_1');
    while (!checkpointed && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      checkpointed = inDatabaseFile(path, 'acct_1');
    }
    expect(checkpointed).toBe(true);
  });

  it('should its thread fail, the connection checkpoints by itself again, every 1,000 pages as SQLite does by default', async () => {
    const database = new BetterSqlite3(join(tempDir(), 'own.db'));
    try {
      // the thread cannot open a file that is not there: it fails and exits
      const checkpoints = startWalCheckpoints(database, join(tempDir(), 'missing', 'gone.db'));
      expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
      const deadline = Date.now() + 5_000;
      while (database.pragma('wal_autocheckpoint', { simple: true }) !== 1_000 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(database.pragma('wal_autocheckpoint', { simple: true })).toBe(1_000);
      await checkpoints.stop();
    } finally {
      database.close();
    }
  });
});

const postgres = STORE_ENGINES.find((engine) => engine.name === 'postgres');

describe.skipIf(postgres === undefined)('postgres write transactions, their statements pipelined', () => {
  async function openPostgres(): Promise<Store> {
    const store = await postgres!.open();
    opened.push(store);
    return store;
  }

  const transactionId = (tx: Db) => sql<{ id: string }>`SELECT txid_current()::text AS id`.execute(tx).then(({ rows }) => rows[0]?.id);

  it('statements asked for together run in one transaction, in the order asked, and commit once the work returns', async () => {
    const store = await openPostgres();
    await sql`CREATE TABLE pipelined (n INTEGER)`.execute(store.db);
    const ids = await store.write(async (tx) => {
      const asked = [1, 2, 3].map((n) => sql`INSERT INTO pipelined (n) VALUES (${n})`.execute(tx));
      // asked for after the inserts, without waiting for them: it reads them, in their order
      const [order] = await Promise.all([sql<{ ns: number[] }>`SELECT array_agg(n ORDER BY ctid) AS ns FROM pipelined`.execute(tx), ...asked]);
      expect(order.rows[0]?.ns).toEqual([1, 2, 3]);
      // not committed yet: another connection sees none of them
      expect((await sql`SELECT n FROM pipelined`.execute(store.db)).rows).toEqual([]);
      return Promise.all([transactionId(tx), transactionId(tx)]);
    });
    expect(new Set(ids).size).toBe(1);
    expect((await sql<{ n: number }>`SELECT n FROM pipelined ORDER BY ctid`.execute(store.db)).rows.map((row) => row.n)).toEqual([1, 2, 3]);
  });

  it('a transaction asked for in one turn of the event loop leaves in one write to the server: its BEGIN, its statements and its COMMIT', async () => {
    const store = await openPostgres();
    await sql`CREATE TABLE pipelined (n INTEGER)`.execute(store.db);
    const socket = Socket.prototype as unknown as { _write: (...args: unknown[]) => unknown; _writev: (...args: unknown[]) => unknown };
    const [write, writev] = [socket._write, socket._writev];
    let writes = 0;
    socket._write = function counted(...args) {
      writes += 1;
      return write.apply(this, args);
    };
    socket._writev = function counted(...args) {
      writes += 1;
      return writev.apply(this, args);
    };
    try {
      await store.write(async (tx) => {
        const asked = [1, 2, 3].map((n) => sql`INSERT INTO pipelined (n) VALUES (${n})`.execute(tx));
        commitNow(tx);
        await Promise.all(asked);
      });
    } finally {
      socket._write = write;
      socket._writev = writev;
    }
    expect(writes).toBe(1);
    expect((await sql<{ n: number }>`SELECT n FROM pipelined ORDER BY ctid`.execute(store.db)).rows.map((row) => row.n)).toEqual([1, 2, 3]);
  });

  it('commitNow commits behind the statements already asked for, in the same transaction; the work writes nothing after it', async () => {
    const store = await openPostgres();
    await sql`CREATE TABLE pipelined (n INTEGER)`.execute(store.db);
    const [first, last] = await store.write(async (tx) => {
      const opened = transactionId(tx);
      const written = sql`INSERT INTO pipelined (n) VALUES (1)`.execute(tx);
      const closing = transactionId(tx);
      commitNow(tx);
      await written;
      return Promise.all([opened, closing]);
    });
    expect(last).toBe(first);
    expect((await sql<{ n: number }>`SELECT n FROM pipelined`.execute(store.db)).rows).toEqual([{ n: 1 }]);
  });

  it('a statement that fails rolls the whole transaction back, and the connection serves the next write', async () => {
    const store = await openPostgres();
    await sql`CREATE TABLE pipelined (n INTEGER NOT NULL)`.execute(store.db);
    await expect(store.write(async (tx) => {
      await Promise.all([sql`INSERT INTO pipelined (n) VALUES (1)`.execute(tx), sql`INSERT INTO pipelined (n) VALUES (NULL)`.execute(tx)]);
    })).rejects.toThrow(/null value/);
    await expect(store.write(async (tx) => {
      const written = sql`INSERT INTO pipelined (n) VALUES (NULL)`.execute(tx);
      commitNow(tx);
      await written;
    })).rejects.toThrow(/null value/);
    expect((await sql`SELECT n FROM pipelined`.execute(store.db)).rows).toEqual([]);
    await store.write(async (tx) => {
      await sql`INSERT INTO pipelined (n) VALUES (2)`.execute(tx);
    });
    expect((await sql`SELECT n FROM pipelined`.execute(store.db)).rows).toEqual([{ n: 2 }]);
  });
});
