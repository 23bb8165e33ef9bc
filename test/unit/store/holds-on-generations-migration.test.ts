import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { runMigrations } from '../../../src/store/migrator.js';
import { openHolds } from '../../support/recorded-charges.js';
import { beforeMigration, STORE_ENGINES } from '../../support/store-engines.js';

/** A generation row of account `acct_a` with `status`, carrying hold `holdId` of `held` units. */
function generation(id: string, status: string, holdId: string, held: string): string {
  return `('${id}', 'acct_a', 'ws_a', 'key_1', 'acme/chat', 0, '${status}', 11, '0', '[]', 1, 'inst_a', '${holdId}', '${held}')`;
}

/** A row of the `holds` table as it stood before the migration. */
function hold(id: string, generationId: string, amount: string, createdAt: number, expiresAt: number): string {
  return `('${id}', '${generationId}', 'acct_a', 'ws_a', 'key_1', '${amount}', ${expiresAt}, ${createdAt}, 'inst_a')`;
}

describe.each(STORE_ENGINES)('moving holds onto their pending generations, on $name', (engine) => {
  it('an open hold moves onto its pending row with its times; one whose generation was settled is released from the reserve; the table goes', async () => {
    const rows = [
      `INSERT INTO accounts (id, name, balance_units, reserved_units, suspended, created_at) VALUES ('acct_a', 'A', '100', '9000000000000000000000000000018', 0, 1)`,
      `INSERT INTO generations (id, account_id, workspace_id, key_id, model, streamed, status, estimated_prompt_tokens, cost_units, cost_lines, created_at, instance_id, hold_id, held_units) VALUES
        ${[generation('gen-1', 'pending', 'hold_1', '9000000000000000000000000000010'), generation('gen-2', 'success', 'hold_2', '5'), generation('gen-3', 'pending', 'hold_3', '3'), generation('gen-4', 'pending', 'hold_4', '7')].join(', ')}`,
      `INSERT INTO holds (id, generation_id, account_id, workspace_id, key_id, amount_units, expires_at, created_at, instance_id) VALUES
        ${[hold('hold_1', 'gen-1', '9000000000000000000000000000010', 500, 1_000), hold('hold_2', 'gen-2', '5', 600, 1_100), hold('hold_3', 'gen-3', '3', 700, 1_200)].join(', ')}`,
    ];
    await beforeMigration({ engine: engine.name, migration: '0013-holds-on-generations', rows }, async (store) => {
      expect(await runMigrations(store)).toContain('0013-holds-on-generations');
      // gen-4's hold was released by its expiry before: its row stays pending with no hold open
      expect(await openHolds(store.db)).toEqual([
        { id: 'hold_1', generation_id: 'gen-1', instance_id: 'inst_a', amount_units: '9000000000000000000000000000010' },
        { id: 'hold_3', generation_id: 'gen-3', instance_id: 'inst_a', amount_units: '3' },
      ]);
      const times = await store.db.selectFrom('generations').select(['id', 'held_at', 'hold_expires_at']).orderBy('id').execute();
      expect(times.map((row) => [row.id, row.held_at === null ? null : Number(row.held_at), row.hold_expires_at === null ? null : Number(row.hold_expires_at)])).toEqual([
        ['gen-1', 500, 1_000], ['gen-2', null, null], ['gen-3', 700, 1_200], ['gen-4', null, null],
      ]);
      const account = await store.db.selectFrom('accounts').select('reserved_units').executeTakeFirstOrThrow();
      expect(account.reserved_units).toBe('9000000000000000000000000000013');
      await expect(sql`SELECT 1 FROM holds`.execute(store.db)).rejects.toThrow();
    });
  });
});
