import type { Migration } from './migration.js';

export const coreMigration: Migration = {
  id: '0001-core',
  statements: [
    `CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL,
      balance_units TEXT NOT NULL DEFAULT '0',
      reserved_units TEXT NOT NULL DEFAULT '0',
      suspended INTEGER NOT NULL DEFAULT 0,
      created_at BIGINT NOT NULL
    )`,
    `CREATE TABLE workspaces (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      name TEXT NOT NULL,
      routing_defaults TEXT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX workspaces_account ON workspaces (account_id)`,
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      workspace_id TEXT NOT NULL REFERENCES workspaces (id),
      account_id TEXT NOT NULL REFERENCES accounts (id),
      name TEXT NOT NULL,
      hash TEXT NOT NULL UNIQUE,
      label TEXT NOT NULL,
      management INTEGER NOT NULL DEFAULT 0,
      limit_units TEXT,
      limit_reset TEXT,
      usage_units TEXT NOT NULL DEFAULT '0',
      expires_at BIGINT,
      revoked_at BIGINT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX api_keys_account ON api_keys (account_id)`,
    `CREATE TABLE key_usage (
      key_id TEXT NOT NULL REFERENCES api_keys (id),
      day_start BIGINT NOT NULL,
      amount_units TEXT NOT NULL,
      PRIMARY KEY (key_id, day_start)
    )`,
    `CREATE TABLE ledger_entries (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      amount_units TEXT NOT NULL,
      kind TEXT NOT NULL,
      generation_id TEXT,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX ledger_entries_account ON ledger_entries (account_id, created_at)`,
    `CREATE TABLE holds (
      id TEXT PRIMARY KEY,
      generation_id TEXT NOT NULL,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      workspace_id TEXT NOT NULL,
      key_id TEXT NOT NULL,
      amount_units TEXT NOT NULL,
      expires_at BIGINT NOT NULL,
      created_at BIGINT NOT NULL
    )`,
    `CREATE INDEX holds_key ON holds (key_id)`,
    `CREATE INDEX holds_expiry ON holds (expires_at)`,
    `CREATE TABLE generations (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      key_id TEXT NOT NULL,
      model TEXT NOT NULL,
      provider_slug TEXT,
      provider_name TEXT,
      endpoint_id TEXT,
      upstream_id TEXT,
      streamed INTEGER NOT NULL,
      status TEXT NOT NULL,
      finish_reason TEXT,
      native_finish_reason TEXT,
      error_code INTEGER,
      error_message TEXT,
      prompt_tokens INTEGER,
      completion_tokens INTEGER,
      cached_tokens INTEGER,
      cache_write_tokens INTEGER,
      reasoning_tokens INTEGER,
      estimated_prompt_tokens INTEGER NOT NULL,
      cost_units TEXT NOT NULL,
      cost_lines TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      latency_ms INTEGER,
      generation_ms INTEGER,
      app_title TEXT,
      app_referer TEXT,
      metadata TEXT
    )`,
    `CREATE INDEX generations_account ON generations (account_id, created_at)`,
    `CREATE INDEX generations_key ON generations (key_id, created_at)`,
  ],
};
