import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createAccount } from '../../../src/accounts/accounts.js';
import { createAbandonedGenerations, STOPPED_BILLED_MESSAGE, STOPPED_UNBILLED_MESSAGE } from '../../../src/billing/abandoned-generations.js';
import { createGenerationCheckpoints } from '../../../src/billing/generation-checkpoints.js';
import { createGenerationReader } from '../../../src/billing/generations.js';
import { createLedger } from '../../../src/billing/ledger.js';
import { parseUsd, type Units } from '../../../src/billing/money.js';
import type { Catalogue } from '../../../src/catalogue/types.js';
import type { Store } from '../../../src/store/store.js';
import { chatCatalogue, endpoint } from '../../fixtures/planner/catalogue-yaml.js';
import { holdRequest } from '../../support/hold-request.js';
import { STORE_ENGINES, type StoreEngine } from '../../support/store-engines.js';
import { recordedCharges } from '../../support/recorded-charges.js';

const opened: Store[] = [];
const logger = pino({ level: 'silent' });
/** prompt 0.000001 and completion 0.000002 USD per token. */
const CATALOGUE = chatCatalogue(endpoint('alpha'));
const ENDPOINT_ID = [...CATALOGUE.endpoints.keys()][0] ?? '';

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

let engine: StoreEngine;

/** An account with 5 USD and the ledgers of a gone instance (`inst_dead`) and of the one recovering. */
async function fixture(catalogue: Catalogue = CATALOGUE) {
  const store = await engine.open();
  opened.push(store);
  const account = await createAccount(store, { name: 'Ada', creditsUsd: '5' });
  const owner = { accountId: account.accountId, workspaceId: account.workspaceId, keyId: account.keyId };
  const dead = createLedger(store, { instanceId: 'inst_dead' });
  const ledger = createLedger(store, { instanceId: 'inst_live' });
  const checkpoints = createGenerationCheckpoints(store, { logger });
  const abandoned = createAbandonedGenerations({ store, ledger, catalogue: { current: () => catalogue } });
  const money = async () => {
    const row = await store.db.selectFrom('accounts').select(['balance_units', 'reserved_units']).executeTakeFirstOrThrow();
    return { balance: BigInt(row.balance_units), reserved: BigInt(row.reserved_units) };
  };
  const charges = () => recordedCharges(store.db);
  const read = (id: string) => createGenerationReader(store).get(id, owner.accountId);
  const admit = (id: string, amount: Units = parseUsd('0.01')) => dead.hold(holdRequest(owner, id, amount));
  return { store, dead, checkpoints, abandoned, money, charges, read, admit };
}

describe.each(STORE_ENGINES)('generations a gone instance left pending, on $name', (current) => {
  beforeAll(() => {
    engine = current;
  });

  it('are billed for their last checkpoint at the endpoint prices, the rest of the hold released, recorded as a 500', async () => {
    const f = await fixture();
    await f.admit('g1');
    await f.checkpoints.record('g1', { endpointId: ENDPOINT_ID, completionTokens: 100 });
    expect(await f.abandoned.settle('inst_dead')).toBe(1);
    // prompt estimate 11 × 0.000001 + 100 × 0.000002
    const cost = parseUsd('0.000211');
    expect(await f.money()).toEqual({ balance: parseUsd('5') - cost, reserved: 0n });
    expect(await f.charges()).toEqual([{ generation_id: 'g1', amount_units: cost.toString() }]);
    expect(await f.read('g1')).toMatchObject({
      status: 'error', errorCode: 500, errorMessage: STOPPED_BILLED_MESSAGE, finishReason: 'error', endpointId: ENDPOINT_ID,
      providerName: 'Provider alpha', model: 'acme/chat', promptTokens: 11, completionTokens: 100, cost,
    });
  });

  it('without a checkpoint are released costing nothing', async () => {
    const f = await fixture();
    await f.admit('g1');
    await f.abandoned.settle('inst_dead');
    expect(await f.money()).toEqual({ balance: parseUsd('5'), reserved: 0n });
    expect(await f.charges()).toEqual([]);
    expect(await f.read('g1')).toMatchObject({ status: 'error', errorCode: 500, errorMessage: STOPPED_UNBILLED_MESSAGE, cost: 0n });
  });

  it('are never charged above their hold', async () => {
    const f = await fixture();
    await f.admit('g1', parseUsd('0.0001'));
    await f.checkpoints.record('g1', { endpointId: ENDPOINT_ID, completionTokens: 100 });
    await f.abandoned.settle('inst_dead');
    expect(await f.charges()).toEqual([{ generation_id: 'g1', amount_units: parseUsd('0.0001').toString() }]);
    expect(await f.money()).toEqual({ balance: parseUsd('4.9999'), reserved: 0n });
  });

  it('are charged once: one its stream settled first, or one settled twice at once, is charged by nobody else', async () => {
    const f = await fixture();
    const first = await f.admit('g1');
    await f.admit('g2');
    await f.checkpoints.record('g2', { endpointId: ENDPOINT_ID, completionTokens: 100 });
    await f.dead.settle(first, { ...first.pending, status: 'success', cost: parseUsd('0.003') });
    await Promise.all([f.abandoned.settle('inst_dead'), f.abandoned.settle('inst_dead')]);
    expect(await f.charges()).toEqual(expect.arrayContaining([
      { generation_id: 'g1', amount_units: parseUsd('0.003').toString() },
      { generation_id: 'g2', amount_units: parseUsd('0.000211').toString() },
    ]));
    expect(await f.charges()).toHaveLength(2);
    expect(await f.money()).toEqual({ balance: parseUsd('5') - parseUsd('0.003211'), reserved: 0n });
  });

  it('whose hold the expiry sweep already released are still charged once, within the amount it held', async () => {
    const f = await fixture();
    await f.admit('g1', parseUsd('0.0001'));
    await f.checkpoints.record('g1', { endpointId: ENDPOINT_ID, completionTokens: 100 });
    expect(await createLedger(f.store).releaseExpired(new Date(Date.now() + 86_400_000))).toBe(1);
    await f.abandoned.settle('inst_dead');
    expect(await f.charges()).toEqual([{ generation_id: 'g1', amount_units: parseUsd('0.0001').toString() }]);
    expect(await f.money()).toEqual({ balance: parseUsd('4.9999'), reserved: 0n });
  });

  it('served by an endpoint since removed from the catalogue are released, the delivered counts kept on the record', async () => {
    const f = await fixture(chatCatalogue(endpoint('beta')));
    await f.admit('g1');
    await f.checkpoints.record('g1', { endpointId: ENDPOINT_ID, completionTokens: 100 });
    await f.abandoned.settle('inst_dead');
    expect(await f.money()).toEqual({ balance: parseUsd('5'), reserved: 0n });
    expect(await f.read('g1')).toMatchObject({ status: 'error', errorMessage: STOPPED_UNBILLED_MESSAGE, completionTokens: 100, cost: 0n });
  });

  it('of another instance are not touched', async () => {
    const f = await fixture();
    await f.admit('g1');
    expect(await f.abandoned.settle('inst_other')).toBe(0);
    expect(await f.read('g1')).toMatchObject({ status: 'pending' });
    expect((await f.money()).reserved).toBe(parseUsd('0.01'));
  });
});
