import type { Migration } from './migration.js';

/**
 * Stored files (see src/files/). A blob is the sealed bytes of one stored value: its header names
 * the data key sealing it (kept in the key store, never here) and when it is swept, and it becomes
 * readable only once `chunks` is set, after every chunk was written. Each chunk row holds one
 * sealed chunk (IV, ciphertext and tag). A stored file is an account's name for a complete blob:
 * its row is written last, so a file is never listed half-written. Bytes are `BYTEA`, PostgreSQL's
 * byte string; SQLite keeps a bound Buffer as a BLOB under any declared type, so the same SQL runs
 * on both. The expiry indexes serve the sweeper; files are listed per account by id, which orders
 * them by creation.
 */
export const storedFilesMigration: Migration = {
  id: '0008-stored-files',
  statements: [
    `CREATE TABLE blobs (
      id TEXT PRIMARY KEY,
      key_id TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      chunks INTEGER,
      bytes BIGINT
    )`,
    `CREATE INDEX blobs_expiry ON blobs (expires_at)`,
    `CREATE TABLE blob_chunks (
      blob_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      sealed BYTEA NOT NULL,
      PRIMARY KEY (blob_id, seq)
    )`,
    `CREATE TABLE stored_files (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      blob_id TEXT NOT NULL,
      filename TEXT NOT NULL,
      purpose TEXT NOT NULL,
      content_type TEXT NOT NULL,
      bytes BIGINT NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    `CREATE INDEX stored_files_account ON stored_files (account_id, id)`,
    `CREATE INDEX stored_files_expiry ON stored_files (expires_at)`,
  ],
};
