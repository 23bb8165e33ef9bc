import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey } from '../../../src/accounts/accounts.js';
import { GatewayError } from '../../../src/core/errors.js';
import { createGenerationReader } from '../../../src/billing/generations.js';
import { createLedger } from '../../../src/billing/ledger.js';
import { parseUsd, type Units } from '../../../src/billing/money.js';
import type { GenerationRecord, HoldRequest } from '../../../src/billing/types.js';
import type { Store } from '../../../src/store/store.js';
import type { ScopeLimits } from '../../../src/accounts/types.js';
import { LIFETIME_DAY } from '../../../src/accounts/scope-usage.js';
import { holdRequest } from '../../support/hold-request.js';
import { STORE_ENGINES, type StoreEngine } from '../../support/store-engines.js';
import { openHolds, recordedCharges } from '../../support/recorded-charges.js';

const opened: Store[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

interface Fixture {
  store: Store;
  owner: { accountId: string; workspaceId: string; keyId: string };
  /** The limits the key's requests are held against (as its key context carries them). */
  limits?: ScopeLimits;
}

let engine: StoreEngine;

async function funded(creditsUsd: string): Promise<Fixture> {
  const store = await engine.open();
  opened.push(store);
  const created = await createAccount(store, { name: 'Ada', creditsUsd });
  return { store, owner: { accountId: created.accountId, workspaceId: created.workspaceId, keyId: created.keyId } };
}

/** A hold whose pending generation was admitted with the facts `record` settles it with. */
function request(fixture: Fixture, generationId: string, amount: Units): HoldRequest {
  const admitted = record(fixture, generationId, 0n);
  return { ...holdRequest(fixture.owner, generationId, amount), pending: { ...admitted, status: 'pending', costLines: [] }, ...(fixture.limits && { limits: fixture.limits }) };
}

function record(fixture: Fixture, id: string, cost: Units): GenerationRecord {
  return {
    id, ...fixture.owner, model: 'acme/chat', providerSlug: 'sim-alpha', providerName: 'Sim Alpha', endpointId: 'ep1',
    upstreamId: 'up-1', streamed: true, status: 'success', finishReason: 'stop', nativeFinishReason: 'end_turn',
    errorCode: null, errorMessage: null, promptTokens: 12, completionTokens: 30, reasoningTokens: 0,
    estimatedPromptTokens: 11, cost, costLines: [{ key: 'prompt', quantity: '12', amount: cost }, { key: 'web_search', quantity: '1', amount: null }],
    createdAt: new Date('2030-01-02T03:04:05.006Z'), latencyMs: 120, generationMs: 900, appTitle: 'App', appReferer: 'https://app.example',
    metadata: { user: 'u1' },
  };
}

async function money(store: Store): Promise<{ balance: Units; reserved: Units }> {
  const row = await store.db.selectFrom('accounts').select(['balance_units', 'reserved_units']).executeTakeFirstOrThrow();
  return { balance: BigInt(row.balance_units), reserved: BigInt(row.reserved_units) };
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

describe.each(STORE_ENGINES)('ledger on $name', (current) => {
  beforeAll(() => {
    engine = current;
  });

  describe('holds and settlement', () => {
    it('a hold reserves exactly and settle charges the exact cost, down to 10^-24 USD', async () => {
      const fixture = await funded('1');
      const ledger = createLedger(fixture.store);
      const hold = await ledger.hold(request(fixture, 'g1', parseUsd('0.5')));
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('1'), reserved: parseUsd('0.5') });
      const cost = parseUsd('0.000000000000000000000007');
      await ledger.settle(hold, record(fixture, 'g1', cost));
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('1') - cost, reserved: 0n });
    });

    it('a hold beyond the spendable balance is refused with 402 carrying required and spendable as integer strings', async () => {
      const fixture = await funded('1');
      const ledger = createLedger(fixture.store);
      await ledger.hold(request(fixture, 'g1', parseUsd('0.75')));
      const error = await refusal(ledger.hold(request(fixture, 'g2', parseUsd('0.250000000000000000000001'))));
      expect(error.status).toBe(402);
      expect(error.errorType).toBe('payment_required');
      expect(error.metadata).toEqual({ required: '250000000000000000000001', spendable: '250000000000000000000000' });
      expect((await money(fixture.store)).reserved).toBe(parseUsd('0.75'));
    });

    it('50 concurrent holds against a balance covering 10 never overspend', async () => {
      const fixture = await funded('10');
      const ledger = createLedger(fixture.store);
      const attempts = Array.from({ length: 50 }, (_, index) => ledger.hold(request(fixture, `g${index}`, parseUsd('1'))));
      const outcomes = await Promise.allSettled(attempts);
      const held = outcomes.filter((outcome) => outcome.status === 'fulfilled');
      const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
      expect(held).toHaveLength(10);
      expect(refused.every((outcome) => outcome.reason instanceof GatewayError && outcome.reason.status === 402)).toBe(true);
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('10'), reserved: parseUsd('10') });
    });

    it('settle charges exactly once, however often it is called', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      const hold = await ledger.hold(request(fixture, 'g1', parseUsd('1')));
      const generation = record(fixture, 'g1', parseUsd('0.3'));
      await Promise.all([ledger.settle(hold, generation), ledger.settle(hold, generation)]);
      await ledger.settle(hold, generation);
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('4.7'), reserved: 0n });
      expect(await recordedCharges(fixture.store.db)).toEqual([{ amount_units: parseUsd('0.3').toString(), generation_id: 'g1' }]);
      expect(await fixture.store.db.selectFrom('ledger_entries').select('kind').execute()).toEqual([{ kind: 'deposit' }]);
    });

    it('release charges nothing and records the generation with cost 0', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      const hold = await ledger.hold(request(fixture, 'g1', parseUsd('1')));
      await ledger.release(hold, record(fixture, 'g1', parseUsd('0.3')));
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
      const stored = await createGenerationReader(fixture.store).get('g1', fixture.owner.accountId);
      expect(stored?.cost).toBe(0n);
      expect(stored?.costLines).toEqual([{ key: 'prompt', quantity: '12', amount: 0n }, { key: 'web_search', quantity: '1', amount: null }]);
      await ledger.settle(hold, record(fixture, 'g1', parseUsd('0.3')));
      expect((await money(fixture.store)).balance).toBe(parseUsd('5'));
    });

    it('release without a record frees the reservation and closes the pending generation as a 500 costing nothing', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      const hold = await ledger.hold(request(fixture, 'g1', parseUsd('1')));
      await ledger.release(hold);
      await ledger.release(hold);
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
      const stored = await createGenerationReader(fixture.store).get('g1', fixture.owner.accountId);
      expect(stored).toMatchObject({ status: 'error', errorCode: 500, finishReason: 'error', cost: 0n, costLines: [] });
    });

    it('expired holds are released, live ones kept', async () => {
      const fixture = await funded('5');
      let now = new Date('2030-01-01T00:00:00Z');
      const ledger = createLedger(fixture.store, { holdTtlMs: 60_000, now: () => now });
      const old = await ledger.hold(request(fixture, 'g1', parseUsd('1')));
      expect(old.expiresAt.toISOString()).toBe('2030-01-01T00:01:00.000Z');
      now = new Date('2030-01-01T00:00:30Z');
      await ledger.hold(request(fixture, 'g2', parseUsd('2')));
      expect(await ledger.releaseExpired(new Date('2030-01-01T00:01:00Z'))).toBe(1);
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('5'), reserved: parseUsd('2') });
      expect(await ledger.releaseExpired(new Date('2030-01-01T00:01:00Z'))).toBe(0);
    });

    it('a settle arriving after its hold expired and was released still charges, once', async () => {
      const fixture = await funded('5');
      const now = new Date('2030-01-01T00:00:00Z');
      const ledger = createLedger(fixture.store, { now: () => now });
      const hold = await ledger.hold(request(fixture, 'g1', parseUsd('1')));
      await ledger.releaseExpired(new Date('2030-01-02T00:00:00Z'));
      await ledger.settle(hold, record(fixture, 'g1', parseUsd('0.4')));
      await ledger.settle(hold, record(fixture, 'g1', parseUsd('0.4')));
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('4.6'), reserved: 0n });
    });

    it('expired holds released while their settlements are written are given back once: the reserve ends at 0, each charged once', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store, { now: () => new Date('2030-01-01T00:00:00Z') });
      const holds = await Promise.all(Array.from({ length: 24 }, (_, index) => ledger.hold(request(fixture, `g${index}`, parseUsd('0.1')))));
      // taken together, their pending rows were written together: each reads back as its hold admitted it
      const reader = createGenerationReader(fixture.store);
      expect(await Promise.all(holds.map((hold) => reader.get(hold.generationId, fixture.owner.accountId)))).toEqual(holds.map((hold) => hold.pending));
      expect(await openHolds(fixture.store.db)).toHaveLength(24);
      const cost = parseUsd('0.03');
      await Promise.all([
        ledger.releaseExpired(new Date('2030-01-02T00:00:00Z')),
        ...holds.map((hold) => ledger.settle(hold, record(fixture, hold.generationId, cost))),
        ledger.releaseExpired(new Date('2030-01-02T00:00:00Z')),
      ]);
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('5') - 24n * cost, reserved: 0n });
      expect(await recordedCharges(fixture.store.db, fixture.owner.accountId)).toHaveLength(24);
      expect(await openHolds(fixture.store.db)).toEqual([]);
    });

    it('a charge above its hold is refused, writing nothing: the hold stays until released', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      const hold = await ledger.hold(request(fixture, 'g1', parseUsd('0.3')));
      await expect(ledger.settle(hold, record(fixture, 'g1', parseUsd('0.300000000000000000000001')))).rejects.toThrow(RangeError);
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('5'), reserved: parseUsd('0.3') });
      expect((await createGenerationReader(fixture.store).get('g1', fixture.owner.accountId))?.status).toBe('pending');
      await ledger.settle(hold, record(fixture, 'g1', parseUsd('0.3')));
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('4.7'), reserved: 0n });
    });

    it('negative amounts are refused', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      await expect(ledger.hold(request(fixture, 'g1', -1n))).rejects.toThrow(RangeError);
      const hold = await ledger.hold(request(fixture, 'g1', 1n));
      await expect(ledger.settle(hold, record(fixture, 'g1', -1n))).rejects.toThrow(RangeError);
    });
  });

  describe('pending generations', () => {
    it('a hold writes its generation as pending at once: readable, costing nothing, stamped with the instance and the hold', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store, { instanceId: 'inst_a' });
      const hold = await ledger.hold(request(fixture, 'g1', parseUsd('1')));
      const stored = await createGenerationReader(fixture.store).get('g1', fixture.owner.accountId);
      expect(stored).toEqual(hold.pending);
      expect(stored).toMatchObject({ status: 'pending', cost: 0n, costLines: [] });
      const row = await fixture.store.db.selectFrom('generations').select(['instance_id', 'hold_id', 'held_units']).executeTakeFirstOrThrow();
      expect(row).toEqual({ instance_id: 'inst_a', hold_id: hold.id, held_units: parseUsd('1').toString() });
      expect(await openHolds(fixture.store.db)).toEqual([{ id: hold.id, generation_id: 'g1', instance_id: 'inst_a', amount_units: parseUsd('1').toString() }]);
    });

    it('a hold refused with 402 leaves no generation behind', async () => {
      const fixture = await funded('1');
      const ledger = createLedger(fixture.store);
      await refusal(ledger.hold(request(fixture, 'g1', parseUsd('2'))));
      expect(await createGenerationReader(fixture.store).get('g1', fixture.owner.accountId)).toBeNull();
    });

    it('a hold whose pending record is not its own pending generation is refused', async () => {
      const fixture = await funded('1');
      const ledger = createLedger(fixture.store);
      const other = request(fixture, 'g2', 1n);
      await expect(ledger.hold({ ...request(fixture, 'g1', 1n), pending: other.pending })).rejects.toThrow(RangeError);
      await expect(ledger.hold({ ...other, pending: { ...other.pending, status: 'success' } })).rejects.toThrow(RangeError);
      expect((await money(fixture.store)).reserved).toBe(0n);
    });

    it('a hold for a generation already recorded is refused, reserving nothing', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      await ledger.recordRefusal(record(fixture, 'g1', 0n));
      await expect(ledger.hold(request(fixture, 'g1', parseUsd('1')))).rejects.toThrow();
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
      expect(await openHolds(fixture.store.db)).toEqual([]);
    });

    it('settling turns the pending row into the final record, charging once even when settled twice at once', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store, { instanceId: 'inst_a' });
      const hold = await ledger.hold(request(fixture, 'g1', parseUsd('1')));
      const generation = record(fixture, 'g1', parseUsd('0.25'));
      await Promise.all([ledger.settle(hold, generation), ledger.settle(hold, { ...generation, cost: parseUsd('0.5') })]);
      expect(await createGenerationReader(fixture.store).get('g1', fixture.owner.accountId)).toEqual(generation);
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('4.75'), reserved: 0n });
      const rows = await fixture.store.db.selectFrom('generations').select(['id', 'instance_id']).execute();
      expect(rows).toEqual([{ id: 'g1', instance_id: 'inst_a' }]);
    });

    it('settlements of one account arriving together share writes: each record written and charged once, the balance and every spend row moved by their exact sum', async () => {
      const fixture = await funded('100');
      let writes = 0;
      const counted: Store = {
        ...fixture.store,
        write: (work) => { writes += 1; return fixture.store.write(work); },
        writeStatement: (work) => { writes += 1; return fixture.store.writeStatement(work); },
      };
      const ledger = createLedger(counted);
      const holds = [];
      for (let index = 0; index < 40; index += 1) holds.push(await ledger.hold(request(fixture, `g${index}`, parseUsd('1'))));
      writes = 0;
      const costs = holds.map((_, index) => parseUsd('0.01') * BigInt(index + 1) + 7n);
      const settled = (index: number): GenerationRecord => ({ ...record(fixture, `g${index}`, costs[index]!), providerName: `Sim \u0000 ${index}` });
      // each hold settled twice at once: the second of each charges nothing
      await Promise.all(holds.flatMap((hold, index) => [0, 1].map(() => ledger.settle(hold, settled(index)))));
      expect(writes).toBeLessThan(holds.length / 4);
      const spent = costs.reduce((sum, cost) => sum + cost, 0n);
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('100') - spent, reserved: 0n });
      const charges = await recordedCharges(fixture.store.db);
      expect(charges).toHaveLength(holds.length);
      expect(charges.reduce((sum, row) => sum + BigInt(row.amount_units), 0n)).toBe(spent);
      // the records are the charges' only entries: the ledger's table keeps the deposit alone
      expect(await fixture.store.db.selectFrom('ledger_entries').select('kind').execute()).toEqual([{ kind: 'deposit' }]);
      // each scope's day (the holds' day) and lifetime total
      const spend = await fixture.store.db.selectFrom('spend_usage').select(['scope', 'scope_id', 'day_start', 'amount_units']).orderBy('scope').orderBy('day_start').execute();
      const { accountId, workspaceId, keyId } = fixture.owner;
      expect(spend.map(({ scope, scope_id, day_start, amount_units }) => [scope, scope_id, Number(day_start) === LIFETIME_DAY ? 'lifetime' : 'day', amount_units])).toEqual([
        ['account', accountId], ['key', keyId], ['workspace', workspaceId],
      ].flatMap(([scope, owner]) => ['lifetime', 'day'].map((day) => [scope, owner, day, spent.toString()])));
      // NUL in a record's text is stored as U+FFFD, as when settled alone
      expect((await createGenerationReader(fixture.store).get('g7', fixture.owner.accountId))?.providerName).toBe('Sim \uFFFD 7');
    });

    it('settlements of two accounts arriving together each move only their own account: balance, reserve and spend', async () => {
      const first = await funded('100');
      const created = await createAccount(first.store, { name: 'Grace', creditsUsd: '100' });
      const second: Fixture = { store: first.store, owner: { accountId: created.accountId, workspaceId: created.workspaceId, keyId: created.keyId } };
      const ledger = createLedger(first.store);
      const holds = [];
      for (let index = 0; index < 20; index += 1) {
        const fixture = index % 2 === 0 ? first : second;
        holds.push({ fixture, id: `g${index}`, hold: await ledger.hold(request(fixture, `g${index}`, parseUsd('1'))) });
      }
      await Promise.all(holds.map(({ fixture, id, hold }) => ledger.settle(hold, record(fixture, id, fixture === first ? parseUsd('0.25') : parseUsd('0.5')))));
      const balances = await first.store.db.selectFrom('accounts').select(['id', 'balance_units', 'reserved_units']).execute();
      const of = (accountId: string) => balances.find((row) => row.id === accountId);
      expect(of(first.owner.accountId)).toMatchObject({ balance_units: (parseUsd('100') - parseUsd('0.25') * 10n).toString(), reserved_units: '0' });
      expect(of(second.owner.accountId)).toMatchObject({ balance_units: (parseUsd('100') - parseUsd('0.5') * 10n).toString(), reserved_units: '0' });
      const lifetime = await first.store.db.selectFrom('spend_usage').select(['scope_id', 'amount_units']).where('scope', '=', 'account').where('day_start', '=', LIFETIME_DAY).execute();
      expect(Object.fromEntries(lifetime.map((row) => [row.scope_id, row.amount_units]))).toEqual({
        [first.owner.accountId]: (parseUsd('0.25') * 10n).toString(),
        [second.owner.accountId]: (parseUsd('0.5') * 10n).toString(),
      });
    });

    it('a batch of settlements whose write fails is written again one by one: only the settlement that cannot be written fails, and keeps its hold', async () => {
      const fixture = await funded('100');
      const ledger = createLedger(fixture.store);
      const holds = [];
      for (let index = 0; index < 12; index += 1) holds.push(await ledger.hold(request(fixture, `g${index}`, parseUsd('1'))));
      const unwritable = { ...record(fixture, 'g5', parseUsd('0.5')), model: null as unknown as string };
      const outcomes = await Promise.allSettled(holds.map((hold, index) => ledger.settle(hold, index === 5 ? unwritable : record(fixture, `g${index}`, parseUsd('0.5')))));
      expect(outcomes.map((outcome) => outcome.status)).toEqual(holds.map((_, index) => (index === 5 ? 'rejected' : 'fulfilled')));
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('100') - parseUsd('0.5') * 11n, reserved: parseUsd('1') });
      const pending = await fixture.store.db.selectFrom('generations').select('id').where('status', '=', 'pending').execute();
      expect(pending).toEqual([{ id: 'g5' }]);
    });
  });

  describe('generation records', () => {
    it('a settled record reads back whole, with unreported counts left undefined', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      const generation = record(fixture, 'g1', parseUsd('0.3'));
      await ledger.settle(await ledger.hold(request(fixture, 'g1', parseUsd('1'))), generation);
      const stored = await createGenerationReader(fixture.store).get('g1', fixture.owner.accountId);
      expect(stored).toEqual(generation);
      expect(stored && 'cachedTokens' in stored).toBe(false);
    });

    it('what went uncollected reads back with its reasons; a released record keeps none', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      const uncollected = { amount: parseUsd('0.004000000000000000000001'), reasons: ['completion_over_ceiling' as const, 'over_hold' as const] };
      const settled = { ...record(fixture, 'g1', parseUsd('0.3')), uncollected };
      await ledger.settle(await ledger.hold(request(fixture, 'g1', parseUsd('0.3'))), settled);
      const reader = createGenerationReader(fixture.store);
      expect(await reader.get('g1', fixture.owner.accountId)).toEqual(settled);
      await ledger.release(await ledger.hold(request(fixture, 'g2', parseUsd('0.3'))), { ...record(fixture, 'g2', parseUsd('0.3')), uncollected });
      expect(await reader.get('g2', fixture.owner.accountId)).not.toHaveProperty('uncollected');
    });

    it('a record is not readable from another account', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      await ledger.settle(await ledger.hold(request(fixture, 'g1', 1n)), record(fixture, 'g1', 1n));
      expect(await createGenerationReader(fixture.store).get('g1', 'acct_other')).toBeNull();
    });

    it('NUL in any text of a record (provider text, headers, metadata, cost lines) is stored as U+FFFD and charged', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      const cost = parseUsd('0.3');
      const generation: GenerationRecord = {
        ...record(fixture, 'g1', cost),
        providerName: 'Sim\u0000Alpha', upstreamId: 'up-\u00001', nativeFinishReason: 'end\u0000turn', errorMessage: 'bad\u0000byte',
        appTitle: 'App\u0000', appReferer: 'https://app.example/\u0000', costLines: [{ key: 'prompt\u0000', quantity: '12', amount: cost }],
        metadata: { 'user\u0000id': 'u\u00001', nested: ['a\u0000', { deep: '\u0000' }], literal: 'backslash \\u0000 stays' },
      };
      // attribution and metadata are admitted with the hold; the rest comes with the settlement
      const admitted = { ...request(fixture, 'g1', parseUsd('1')), pending: { ...generation, status: 'pending' as const, costLines: [] } };
      await ledger.settle(await ledger.hold(admitted), generation);
      const stored = await createGenerationReader(fixture.store).get('g1', fixture.owner.accountId);
      expect(stored).toEqual({
        ...generation,
        providerName: 'Sim\uFFFDAlpha', upstreamId: 'up-\uFFFD1', nativeFinishReason: 'end\uFFFDturn', errorMessage: 'bad\uFFFDbyte',
        appTitle: 'App\uFFFD', appReferer: 'https://app.example/\uFFFD', costLines: [{ key: 'prompt\uFFFD', quantity: '12', amount: cost }],
        metadata: { 'user\uFFFDid': 'u\uFFFD1', nested: ['a\uFFFD', { deep: '\uFFFD' }], literal: 'backslash \\u0000 stays' },
      });
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('5') - cost, reserved: 0n });
    });

    it('NUL in the record of a released hold and of a refusal is stored as U+FFFD too', async () => {
      const fixture = await funded('5');
      const ledger = createLedger(fixture.store);
      await ledger.release(await ledger.hold(request(fixture, 'g1', parseUsd('1'))), { ...record(fixture, 'g1', 1n), errorMessage: 'cut\u0000' });
      await ledger.recordRefusal({ ...record(fixture, 'g2', 0n), status: 'error', errorMessage: 'no\u0000route' });
      const reader = createGenerationReader(fixture.store);
      expect((await reader.get('g1', fixture.owner.accountId))?.errorMessage).toBe('cut\uFFFD');
      expect((await reader.get('g2', fixture.owner.accountId))?.errorMessage).toBe('no\uFFFDroute');
      expect(await money(fixture.store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
    });

    it('looking up an id holding NUL finds nothing, without an error from the engine', async () => {
      const fixture = await funded('5');
      expect(await createGenerationReader(fixture.store).get('gen-\u0000abc', fixture.owner.accountId)).toBeNull();
    });
  });

  describe('key spend limits', () => {
    async function limited(fixture: Fixture, limitUsd: string, limitReset?: 'daily' | 'weekly' | 'monthly'): Promise<Fixture> {
      const issued = await createKey(fixture.store, { accountId: fixture.owner.accountId, limitUsd, ...(limitReset && { limitReset }) });
      return { ...fixture, owner: { ...fixture.owner, keyId: issued.id }, limits: { key: { limit: parseUsd(limitUsd), reset: limitReset ?? null } } };
    }

    it('a hold past the key limit is refused with 402 scope key, limit, used and limit_reset', async () => {
      const fixture = await limited(await funded('100'), '1', 'daily');
      const ledger = createLedger(fixture.store, { now: () => new Date('2030-01-01T12:00:00Z') });
      await ledger.settle(await ledger.hold(request(fixture, 'g1', parseUsd('0.5'))), record(fixture, 'g1', parseUsd('0.4')));
      await ledger.hold(request(fixture, 'g2', parseUsd('0.5')));
      const error = await refusal(ledger.hold(request(fixture, 'g3', parseUsd('0.2'))));
      expect(error.status).toBe(402);
      expect(error.metadata).toEqual({ scope: 'key', limit: parseUsd('1').toString(), used: parseUsd('0.9').toString(), limit_reset: 'daily' });
      await ledger.hold(request(fixture, 'g4', parseUsd('0.1')));
    });

    it('an exhausted key is refused whatever the hold, other keys of the account are not', async () => {
      const base = await funded('100');
      const fixture = await limited(base, '0.5');
      const ledger = createLedger(fixture.store);
      await ledger.settle(await ledger.hold(request(fixture, 'g1', parseUsd('0.5'))), record(fixture, 'g1', parseUsd('0.5')));
      const error = await refusal(ledger.hold(request(fixture, 'g2', 0n)));
      expect(error.metadata).toMatchObject({ scope: 'key', used: parseUsd('0.5').toString(), limit_reset: null });
      await ledger.hold(request(base, 'g3', parseUsd('50')));
    });

    it('a daily limit is available again in the next UTC day', async () => {
      const fixture = await limited(await funded('100'), '1', 'daily');
      let now = new Date('2030-01-01T23:59:59Z');
      const ledger = createLedger(fixture.store, { now: () => now });
      await ledger.settle(await ledger.hold(request(fixture, 'g1', parseUsd('1'))), record(fixture, 'g1', parseUsd('1')));
      await refusal(ledger.hold(request(fixture, 'g2', parseUsd('0.1'))));
      now = new Date('2030-01-02T00:00:00Z');
      await ledger.hold(request(fixture, 'g3', parseUsd('1')));
    });
  });
});
