import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openKeyStore, type OpenKeyStoreOptions } from '../../src/files/database-key-store.js';
import type { KeyStore } from '../../src/files/key-store.js';
import { newKey } from '../../src/files/sealing.js';
import { freshPostgresDatabase, type StoreEngine } from './store-engines.js';

/** A key store on a database of its own, and where that database is (to open it again). */
export interface OpenedKeyStore {
  keyStore: KeyStore;
  url: string;
  masterKey: Buffer;
}

/**
 * How a test file opens fresh key stores on `engine` (a SQLite file in a temporary folder, or a
 * scratch PostgreSQL schema); each is closed and thrown away after the test that opened it. Call it
 * inside the `describe` of the engine.
 */
export function keyStoreOpener(engine: StoreEngine): (options?: OpenKeyStoreOptions & { masterKey?: Buffer }) => Promise<OpenedKeyStore> {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return async (options = {}) => {
    const url = await freshUrl(engine, cleanups);
    const masterKey = options.masterKey ?? newKey();
    const keyStore = await openKeyStore(url, masterKey, options);
    cleanups.push(() => keyStore.close().catch(() => undefined));
    return { keyStore, url, masterKey };
  };
}

async function freshUrl(engine: StoreEngine, cleanups: (() => Promise<void>)[]): Promise<string> {
  if (engine.name === 'postgres') {
    const database = await freshPostgresDatabase();
    cleanups.push(() => database.drop());
    return database.url;
  }
  const folder = mkdtempSync(join(tmpdir(), 'switchyard-keys-'));
  cleanups.push(async () => rmSync(folder, { recursive: true, force: true }));
  return `sqlite:${join(folder, 'keys.db')}`;
}
