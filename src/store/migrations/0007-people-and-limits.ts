import type { Db } from '../store-handle.js';
import type { Migration } from './migration.js';

/**
 * The platform half: people who sign in (users, their sessions, the sign-in throttle), the approval
 * flow's one-time codes, the audit trail, and spend limits on three scopes.
 *
 * Spend is kept per scope (`key`, `workspace`, `account`) and UTC day in `spend_usage`, with one
 * row per scope at day -1 (`LIFETIME_DAY` in accounts/scope-usage.ts) holding everything it was ever charged; the limit windows sum the
 * days since their start. The keys' own `key_usage` rows and lifetime totals move there, and the
 * workspaces and accounts start from what their keys were charged.
 */
export const peopleAndLimitsMigration: Migration = {
  id: '0007-people-and-limits',
  statements: [
    `ALTER TABLE accounts ADD COLUMN limit_units TEXT`,
    `ALTER TABLE accounts ADD COLUMN limit_reset TEXT`,
    `ALTER TABLE workspaces ADD COLUMN limit_units TEXT`,
    `ALTER TABLE workspaces ADD COLUMN limit_reset TEXT`,
    `ALTER TABLE api_keys ADD COLUMN disabled INTEGER NOT NULL DEFAULT 0`,
    `ALTER TABLE api_keys ADD COLUMN updated_at BIGINT`,
    `ALTER TABLE api_keys ADD COLUMN creator_user_id TEXT`,
    `ALTER TABLE api_keys ADD COLUMN origin TEXT`,
    `CREATE TABLE spend_usage (
      scope TEXT NOT NULL,
      scope_id TEXT NOT NULL,
      day_start BIGINT NOT NULL,
      amount_units TEXT NOT NULL,
      PRIMARY KEY (scope, scope_id, day_start)
    )`,
    `INSERT INTO spend_usage (scope, scope_id, day_start, amount_units)
      SELECT 'key', key_id, day_start, amount_units FROM key_usage`,
    `INSERT INTO spend_usage (scope, scope_id, day_start, amount_units)
      SELECT 'key', id, -1, usage_units FROM api_keys`,
    `DROP TABLE key_usage`,
    `ALTER TABLE api_keys DROP COLUMN usage_units`,
    `CREATE TABLE users (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts (id),
      email TEXT NOT NULL UNIQUE,
      password_hash TEXT NOT NULL,
      role TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      password_changed_at BIGINT NOT NULL
    )`,
    `CREATE INDEX users_account ON users (account_id)`,
    `CREATE TABLE sessions (
      id TEXT PRIMARY KEY,
      user_id TEXT NOT NULL REFERENCES users (id),
      account_id TEXT NOT NULL,
      csrf_secret TEXT NOT NULL,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL
    )`,
    `CREATE INDEX sessions_user ON sessions (user_id)`,
    `CREATE TABLE sign_in_failures (
      subject TEXT PRIMARY KEY,
      failures INTEGER NOT NULL,
      first_failure_at BIGINT NOT NULL,
      locked_until BIGINT
    )`,
    `CREATE TABLE auth_codes (
      code_hash TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      user_id TEXT NOT NULL,
      workspace_id TEXT NOT NULL,
      callback_origin TEXT NOT NULL,
      code_challenge TEXT NOT NULL,
      limit_units TEXT,
      created_at BIGINT NOT NULL,
      expires_at BIGINT NOT NULL,
      consumed_at BIGINT
    )`,
    `CREATE TABLE audit_events (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      at BIGINT NOT NULL,
      actor_kind TEXT NOT NULL,
      actor_id TEXT,
      via TEXT NOT NULL,
      action TEXT NOT NULL,
      target TEXT,
      before_json TEXT,
      after_json TEXT,
      address TEXT
    )`,
    `CREATE INDEX audit_events_account ON audit_events (account_id, id)`,
  ],
  backfill: backfillScopeUsage,
};

/** Each workspace's and account's spend, per day and in all, summed from its keys' rows. */
async function backfillScopeUsage(tx: Db): Promise<void> {
  const rows = await tx
    .selectFrom('spend_usage')
    .innerJoin('api_keys', 'api_keys.id', 'spend_usage.scope_id')
    .select(['api_keys.workspace_id', 'api_keys.account_id', 'spend_usage.day_start', 'spend_usage.amount_units'])
    .where('spend_usage.scope', '=', 'key')
    .execute();
  const sums = new Map<string, { scope: string; scopeId: string; day: number; amounts: string[] }>();
  for (const row of rows) {
    for (const [scope, scopeId] of [['workspace', row.workspace_id], ['account', row.account_id]] as const) {
      const id = `${scope}\u0000${scopeId}\u0000${row.day_start}`;
      const sum = sums.get(id) ?? { scope, scopeId, day: row.day_start, amounts: [] };
      sum.amounts.push(row.amount_units);
      sums.set(id, sum);
    }
  }
  for (const sum of sums.values()) {
    await tx
      .insertInto('spend_usage')
      .values({ scope: sum.scope, scope_id: sum.scopeId, day_start: sum.day, amount_units: sum.amounts.reduce((total, amount) => total + BigInt(amount), 0n).toString() })
      .execute();
  }
}
