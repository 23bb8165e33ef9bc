import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultKeyStoreUrl, masterKeyFolderOf } from '../../../src/files/key-store-location.js';
import { startKeyStore } from '../../../src/runtime/key-store-startup.js';
import { StartupError } from '../../../src/runtime/startup-error.js';

const folders: string[] = [];
const quiet = { warn: () => undefined };

afterEach(() => {
  for (const path of folders.splice(0)) rmSync(path, { recursive: true, force: true });
});

function folder(): string {
  const path = mkdtempSync(join(tmpdir(), 'switchyard-keystart-'));
  folders.push(path);
  return path;
}

async function refusal(work: Promise<unknown>): Promise<StartupError> {
  const error = await work.then(() => undefined, (thrown: unknown) => thrown);
  if (!(error instanceof StartupError)) throw new Error(`expected a StartupError, got ${String(error)}`);
  return error;
}

describe('where the key store is', () => {
  it('beside a SQLite database file, in memory beside an in-memory one, ./data/keys.db beside PostgreSQL', () => {
    expect(defaultKeyStoreUrl('sqlite:./data/switchyard.db')).toBe('sqlite:data/keys.db');
    expect(defaultKeyStoreUrl('sqlite:/var/lib/switchyard/main.db')).toBe('sqlite:/var/lib/switchyard/keys.db');
    expect(defaultKeyStoreUrl('sqlite::memory:')).toBe('sqlite::memory:');
    expect(defaultKeyStoreUrl('postgres://app@db/app')).toBe('sqlite:./data/keys.db');
  });

  it('the master key file lies beside a key store in a file, beside the database for a PostgreSQL one, nowhere for one in memory', () => {
    expect(masterKeyFolderOf('sqlite:data/keys.db', 'sqlite:./data/switchyard.db')).toBe('data');
    expect(masterKeyFolderOf('sqlite:/secure/keys.db', 'postgres://app@db/app')).toBe('/secure');
    expect(masterKeyFolderOf('postgres://app@keys/keys', 'sqlite:/var/lib/main.db')).toBe('/var/lib');
    expect(masterKeyFolderOf('postgres://app@keys/keys', 'postgres://app@db/app')).toBe('./data');
    expect(masterKeyFolderOf('sqlite::memory:', 'postgres://app@db/app')).toBeNull();
  });
});

describe('starting the key store', () => {
  it('opens beside the database with a master key made there, and again with the same key', async () => {
    const data = folder();
    const databaseUrl = `sqlite:${join(data, 'switchyard.db')}`;
    const first = await startKeyStore({ databaseUrl, env: {}, poolSize: 2, logger: quiet });
    const key = await first.create({ destroyAt: Date.now() + 60_000 });
    await first.close();
    const second = await startKeyStore({ databaseUrl, env: {}, poolSize: 2, logger: quiet });
    expect((await second.read(key.id))?.key).toEqual(key.key);
    await second.close();
  });

  it('another master key than the one its keys were wrapped with refuses the start naming where it came from', async () => {
    const data = folder();
    const databaseUrl = `sqlite:${join(data, 'switchyard.db')}`;
    await (await startKeyStore({ databaseUrl, env: {}, poolSize: 2, logger: quiet })).close();
    const error = await refusal(startKeyStore({ databaseUrl, env: { SWITCHYARD_MASTER_KEY: Buffer.alloc(32, 9).toString('base64') }, poolSize: 2, logger: quiet }));
    expect(error.option).toBe('SWITCHYARD_MASTER_KEY');
    expect(error.message).toMatch(/does not open the data keys of this key store/);
  });

  it('a bad URL, the database itself or an unreachable server refuses the start naming --key-store, without a password', async () => {
    const databaseUrl = `sqlite:${join(folder(), 'switchyard.db')}`;
    const start = (url: string) => refusal(startKeyStore({ url, databaseUrl, env: {}, poolSize: 2, logger: quiet }));
    expect((await start('mysql://h/db')).message).toMatch(/^--key-store: unsupported database URL/);
    expect((await start(databaseUrl)).message).toMatch(/^--key-store: must name another database than --database/);
    const unreachable = await start('postgres://app:hunter2@127.0.0.1:1/keys');
    expect(unreachable.message).toMatch(/^--key-store: cannot open postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/keys: .*ECONNREFUSED/);
    expect(unreachable.message).not.toContain('hunter2');
  });
});
