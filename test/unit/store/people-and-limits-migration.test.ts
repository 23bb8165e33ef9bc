import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../../src/store/migrator.js';
import { beforeMigration, STORE_ENGINES } from '../../support/store-engines.js';

const DAY = 1_795_737_600_000;

describe.each(STORE_ENGINES)('moving to spend per scope, on $name', (engine) => {
  it('every key keeps its usage per day and in all, and its workspace and account start from the exact sum of their keys', async () => {
    const rows = [
      `INSERT INTO accounts (id, name, balance_units, reserved_units, suspended, created_at) VALUES ('acct_a', 'A', '100', '0', 0, 1)`,
      `INSERT INTO workspaces (id, account_id, name, routing_defaults, created_at) VALUES ('ws_a', 'acct_a', 'Default', NULL, 1), ('ws_b', 'acct_a', 'Other', NULL, 2)`,
      `INSERT INTO api_keys (id, workspace_id, account_id, name, hash, label, management, limit_units, limit_reset, usage_units, expires_at, revoked_at, created_at) VALUES
        ('key_1', 'ws_a', 'acct_a', 'one', 'h1', 'l1', 0, NULL, NULL, '3000000000000000000001', NULL, NULL, 1),
        ('key_2', 'ws_a', 'acct_a', 'two', 'h2', 'l2', 0, '5', 'daily', '7000000000000000000000000000005', NULL, NULL, 1),
        ('key_3', 'ws_b', 'acct_a', 'three', 'h3', 'l3', 0, NULL, NULL, '1', NULL, NULL, 1)`,
      `INSERT INTO key_usage (key_id, day_start, amount_units) VALUES
        ('key_1', ${DAY - 86_400_000}, '1000000000000000000000'), ('key_1', ${DAY}, '2000000000000000000001'),
        ('key_2', ${DAY}, '7000000000000000000000000000005'), ('key_3', ${DAY}, '1')`,
    ];
    await beforeMigration({ engine: engine.name, migration: '0007-people-and-limits', rows }, async (store) => {
      expect(await runMigrations(store)).toContain('0007-people-and-limits');
      const spend = await store.db.selectFrom('spend_usage').selectAll().execute();
      const amount = (scope: string, id: string, day: number) => spend.find((row) => row.scope === scope && row.scope_id === id && Number(row.day_start) === day)?.amount_units;
      expect(spend).toHaveLength(15);
      expect(amount('key', 'key_1', -1)).toBe('3000000000000000000001');
      expect(amount('key', 'key_1', DAY - 86_400_000)).toBe('1000000000000000000000');
      expect(amount('key', 'key_2', -1)).toBe('7000000000000000000000000000005');
      expect(amount('workspace', 'ws_a', -1)).toBe('7000000003000000000000000000006');
      expect(amount('workspace', 'ws_a', DAY)).toBe('7000000002000000000000000000006');
      expect(amount('workspace', 'ws_b', DAY)).toBe('1');
      expect(amount('account', 'acct_a', -1)).toBe('7000000003000000000000000000007');
      expect(amount('account', 'acct_a', DAY - 86_400_000)).toBe('1000000000000000000000');
      const key = await store.db.selectFrom('api_keys').select(['limit_units', 'limit_reset', 'disabled']).where('id', '=', 'key_2').executeTakeFirstOrThrow();
      expect(key).toEqual({ limit_units: '5', limit_reset: 'daily', disabled: 0 });
    });
  });
});
