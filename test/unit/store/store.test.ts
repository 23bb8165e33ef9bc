import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseDatabaseUrl } from '../../../src/store/database-url.js';
import { runMigrations } from '../../../src/store/migrator.js';
import { MIGRATIONS } from '../../../src/store/migrations/migration-list.js';
import { openStore, type Store } from '../../../src/store/store.js';

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
  afterEach(() => {
    vi.useRealTimers();
  });

  it('a file database copies its log into the database each second something was written, never inside a transaction, not when idle', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const store = await open(`sqlite:${join(tempDir(), 'wal.db')}`);
    const sqlite = store.sqlite;
    if (!sqlite) throw new Error('a SQLite store has its connection');
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    const checkpoints: unknown[] = [];
    const pragma = sqlite.pragma.bind(sqlite);
    sqlite.pragma = ((source: string, options?: { simple?: boolean }) => {
      if (source.startsWith('wal_checkpoint')) checkpoints.push(source);
      return pragma(source, options);
    }) as typeof sqlite.pragma;
    vi.advanceTimersByTime(1_000);
    // the migrations wrote: the first second checkpoints them
    expect(checkpoints).toEqual(['wal_checkpoint(PASSIVE)']);
    vi.advanceTimersByTime(3_000);
    expect(checkpoints).toHaveLength(1);
    await store.write(async (tx) => {
      await tx.insertInto('accounts').values({ id: 'acct_1', name: 'Ada', balance_units: '0', reserved_units: '0', suspended: 0, created_at: 0 }).execute();
      // a transaction is open on the connection: the timer waits for it to end
      vi.advanceTimersByTime(1_000);
    });
    expect(checkpoints).toHaveLength(1);
    vi.advanceTimersByTime(1_000);
    expect(checkpoints).toHaveLength(2);
    await store.close();
    opened.splice(opened.indexOf(store), 1);
    vi.advanceTimersByTime(5_000);
    expect(checkpoints).toHaveLength(2);
  });
});
