import { afterAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { generationRecord } from '../../src/billing/generation-record.js';
import { createLedger } from '../../src/billing/ledger.js';
import { parseUsd } from '../../src/billing/money.js';
import { GatewayError } from '../../src/core/errors.js';
import { newGenerationId } from '../../src/core/generation-id.js';
import { openStore, type Store } from '../../src/store/store.js';
import { openHolds } from '../support/recorded-charges.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE, type ScratchDatabase } from '../support/store-engines.js';

const INSTANCES = 3;
const PER_INSTANCE = 64;

describe.skipIf(!POSTGRES_REACHABLE)('holds taken at once from three instances on one PostgreSQL', () => {
  const stores: Store[] = [];
  let database: ScratchDatabase | undefined;

  afterAll(async () => {
    for (const store of stores) await store.close();
    await database?.drop();
  });

  it('never reserve more than the balance: 3 × 64 concurrent holds against a balance covering 10 grant exactly 10', async () => {
    database = await freshPostgresDatabase();
    for (let index = 0; index < INSTANCES; index += 1) stores.push(await openStore(database.url, { poolSize: 16 }));
    const [first] = stores;
    if (!first) throw new Error('no store');
    const account = await createAccount(first, { name: 'contended', creditsUsd: '1' });
    const key = await first.db.selectFrom('api_keys').select(['id', 'workspace_id']).where('account_id', '=', account.accountId).executeTakeFirstOrThrow();
    const amount = parseUsd('0.1');
    const attempts = stores.flatMap((store) => {
      const ledger = createLedger(store);
      return Array.from({ length: PER_INSTANCE }, async () => {
        const generationId = newGenerationId();
        const owner = { accountId: account.accountId, workspaceId: key.workspace_id, keyId: key.id };
        try {
          await ledger.hold({
            generationId, ...owner, amount,
            pending: generationRecord({ generationId, owner, asked: { model: 'm', streamed: false, attribution: {}, metadata: null }, startedAt: Date.now(), estimatedPromptTokens: 1, pending: true, cost: 0n, costLines: [] }),
          });
          return 'held';
        } catch (error) {
          if (error instanceof GatewayError && error.code === 'payment_required') return 'refused';
          throw error;
        }
      });
    });
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((outcome) => outcome === 'held')).toHaveLength(10);
    expect(outcomes.filter((outcome) => outcome === 'refused')).toHaveLength(INSTANCES * PER_INSTANCE - 10);
    const row = await first.db.selectFrom('accounts').select(['balance_units', 'reserved_units']).where('id', '=', account.accountId).executeTakeFirstOrThrow();
    expect(BigInt(row.reserved_units)).toBe(amount * 10n);
    expect(BigInt(row.reserved_units) <= BigInt(row.balance_units)).toBe(true);
    const holds = await openHolds(first.db, account.accountId);
    expect(holds).toHaveLength(10);
  }, 60_000);
});
