import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../../src/store/migrator.js';
import { beforeMigration, STORE_ENGINES } from '../../support/store-engines.js';

/** A settled generation row of account `acct_a` (or `account`) costing `cost`. */
function generation(id: string, cost: string, account = 'acct_a'): string {
  return `('${id}', '${account}', 'ws_a', 'key_1', 'acme/chat', 0, 'success', 11, '${cost}', '[]', 1)`;
}

describe.each(STORE_ENGINES)('moving charges onto their generations, on $name', (engine) => {
  it('a charge entry its generation row says again goes; deposits, and a charge no row carries alike, stay as they were', async () => {
    const rows = [
      `INSERT INTO accounts (id, name, balance_units, reserved_units, suspended, created_at) VALUES
        ('acct_a', 'A', '100', '0', 0, 1), ('acct_b', 'B', '100', '0', 0, 1)`,
      `INSERT INTO generations (id, account_id, workspace_id, key_id, model, streamed, status, estimated_prompt_tokens, cost_units, cost_lines, created_at) VALUES
        ${[generation('gen-1', '7000000000000000000000000000005'), generation('gen-2', '3'), generation('gen-3', '4'), generation('gen-4', '5', 'acct_b')].join(', ')}`,
      `INSERT INTO ledger_entries (id, account_id, amount_units, kind, generation_id, created_at) VALUES
        ('led_deposit', 'acct_a', '100', 'deposit', NULL, 1),
        ('led_1', 'acct_a', '7000000000000000000000000000005', 'charge', 'gen-1', 2),
        ('led_2', 'acct_a', '2', 'charge', 'gen-2', 2),
        ('led_4', 'acct_a', '5', 'charge', 'gen-4', 2),
        ('led_5', 'acct_a', '6', 'charge', 'gen-5', 2),
        ('led_none', 'acct_a', '8', 'charge', NULL, 2)`,
    ];
    await beforeMigration({ engine: engine.name, migration: '0012-charges-on-generations', rows }, async (store) => {
      expect(await runMigrations(store)).toContain('0012-charges-on-generations');
      const left = await store.db.selectFrom('ledger_entries').select('id').orderBy('id').execute();
      // led_2 names a record of another amount, led_4 one of another account, led_5 none at all
      expect(left.map((entry) => entry.id)).toEqual(['led_2', 'led_4', 'led_5', 'led_deposit', 'led_none']);
      expect(await store.db.selectFrom('generations').select('id').orderBy('id').execute()).toHaveLength(4);
    });
  });
});
