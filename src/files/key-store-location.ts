import { dirname, join } from 'node:path';
import { parseDatabaseUrl } from '../store/database-url.js';

/** Where the key store lives when nothing says (DESIGN §1), for a database that is not a SQLite file. */
export const DEFAULT_KEY_STORE_URL = 'sqlite:./data/keys.db';

/** The folder a SQLite database file lies in; `./data` for PostgreSQL; null for an in-memory database. */
export function dataFolderOf(databaseUrl: string): string | null {
  const location = parseDatabaseUrl(databaseUrl);
  if (location.engine === 'postgres') return './data';
  return location.path === ':memory:' ? null : dirname(location.path);
}

/**
 * The key store a gateway on `databaseUrl` uses when `--key-store` is not given: `keys.db` in the
 * database file's folder (`sqlite:./data/keys.db` beside the default database), an in-memory one
 * beside an in-memory database (nothing sealed outlives the process), and DEFAULT_KEY_STORE_URL
 * beside PostgreSQL.
 */
export function defaultKeyStoreUrl(databaseUrl: string): string {
  const folder = dataFolderOf(databaseUrl);
  if (folder === null) return 'sqlite::memory:';
  return parseDatabaseUrl(databaseUrl).engine === 'postgres' ? DEFAULT_KEY_STORE_URL : `sqlite:${join(folder, 'keys.db')}`;
}

/**
 * Where the master key file is kept when `SWITCHYARD_MASTER_KEY` is not set: beside a key store
 * kept in a SQLite file (by default the database's folder: `./data/master.key`), beside the
 * database (or in `./data`) for a PostgreSQL key store, and nowhere for an in-memory key store,
 * whose keys die with the process: its master key is made for the process alone.
 */
export function masterKeyFolderOf(keyStoreUrl: string, databaseUrl: string): string | null {
  const keys = parseDatabaseUrl(keyStoreUrl);
  if (keys.engine === 'sqlite') return keys.path === ':memory:' ? null : dirname(keys.path);
  return dataFolderOf(databaseUrl) ?? './data';
}
