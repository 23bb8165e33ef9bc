import type { Migration } from './migration.js';

/**
 * Batches (see src/batches/). A batch row holds what the batch object reports and what the runner
 * needs at every send: the submitting key (by hash, read again before each request), its workspace,
 * the attribution headers and defaults of the submission, and the data key sealing its requests and
 * replies. Each request row moves through `queued` → `sending` (with its generation id) → `settled`
 * (with its sealed result line) or `failed`; a request that never ran (`unsent`) gets its line when
 * the batch ends. A lease per account says which instance runs that account's batches, and until
 * when; another instance takes the account over once it lapses.
 */
export const batchesMigration: Migration = {
  id: '0009-batches',
  statements: [
    `CREATE TABLE batches (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      key_hash TEXT NOT NULL,
      endpoint TEXT NOT NULL,
      model TEXT,
      status TEXT NOT NULL,
      submission TEXT NOT NULL,
      key_id TEXT NOT NULL,
      input_file_id TEXT,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      in_progress_at BIGINT,
      cancelling_at BIGINT,
      finalized_at BIGINT,
      total INTEGER NOT NULL,
      completed INTEGER NOT NULL,
      failed INTEGER NOT NULL,
      error_message TEXT,
      results_file_id TEXT
    )`,
    `CREATE INDEX batches_account ON batches (account_id, id)`,
    `CREATE INDEX batches_status ON batches (status, account_id)`,
    `CREATE TABLE batch_requests (
      batch_id TEXT NOT NULL,
      seq INTEGER NOT NULL,
      id TEXT NOT NULL,
      custom_id TEXT NOT NULL,
      state TEXT NOT NULL,
      generation_id TEXT,
      body BYTEA,
      result BYTEA,
      outcome TEXT,
      PRIMARY KEY (batch_id, seq)
    )`,
    `CREATE TABLE batch_leases (
      account_id TEXT PRIMARY KEY,
      holder TEXT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
  ],
};
