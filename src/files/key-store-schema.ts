import type { Migration } from '../store/migrations/migration.js';

/** One data key, wrapped (AES-256-GCM under the master key, bound to its id), with its IV and tag. */
export type DataKeysTable = {
  id: string;
  iv: Buffer;
  wrapped: Buffer;
  tag: Buffer;
  created_at: number;
  destroy_at: number;
};

/** A known value sealed under the master key when the store was created: a wrong master key does not open it. */
export type MasterKeyCheckTable = {
  id: number;
  sealed: Buffer;
};

/** The key store's tables, beside its migrations record (type aliases: Kysely's `withTables` needs them indexable). */
export type KeyStoreTables = {
  data_keys: DataKeysTable;
  master_key_check: MasterKeyCheckTable;
};

/**
 * The key store's own schema, in its own database (`--key-store`), recorded in that database's
 * `switchyard_migrations` like the gateway's. Plain SQL both engines run (see 0008-stored-files.ts
 * for `BYTEA`). `destroy_at` is indexed for the sweeper.
 */
export const KEY_STORE_MIGRATIONS: readonly Migration[] = [
  {
    id: 'keys-0001-data-keys',
    statements: [
      `CREATE TABLE data_keys (
        id TEXT PRIMARY KEY,
        iv BYTEA NOT NULL,
        wrapped BYTEA NOT NULL,
        tag BYTEA NOT NULL,
        created_at BIGINT NOT NULL,
        destroy_at BIGINT NOT NULL
      )`,
      `CREATE INDEX data_keys_destroy ON data_keys (destroy_at)`,
      `CREATE TABLE master_key_check (
        id INTEGER PRIMARY KEY,
        sealed BYTEA NOT NULL
      )`,
    ],
  },
];
