import { afterEach, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { addCredits, createAccount, createKey } from '../../../src/accounts/accounts.js';
import { readScopeUsage } from '../../../src/accounts/scope-usage.js';
import type { ScopeLimits } from '../../../src/accounts/types.js';
import { createAbandonedGenerations, STOPPED_BILLED_MESSAGE } from '../../../src/billing/abandoned-generations.js';
import { createGenerationCheckpoints } from '../../../src/billing/generation-checkpoints.js';
import { createGenerationReader } from '../../../src/billing/generations.js';
import { createLedger, type LedgerOptions } from '../../../src/billing/ledger.js';
import { ledgerTables } from '../../../src/billing/ledger-engine.js';
import { spendOwners } from '../../../src/billing/ledger-tables.js';
import { dayStart } from '../../../src/accounts/usage-window.js';
import { parseUsd, type Units } from '../../../src/billing/money.js';
import type { GenerationRecord, Hold, HoldRequest, Ledger } from '../../../src/billing/types.js';
import { GatewayError } from '../../../src/core/errors.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { chatCatalogue, endpoint } from '../../fixtures/planner/catalogue-yaml.js';
import { holdRequest } from '../../support/hold-request.js';
import { STORE_ENGINES } from '../../support/store-engines.js';
import { openHolds, recordedCharges } from '../../support/recorded-charges.js';

const opened: Store[] = [];
const logger = pino({ level: 'silent' });
/** prompt 0.000001 and completion 0.000002 USD per token. */
const CATALOGUE = chatCatalogue(endpoint('alpha'));
const ENDPOINT_ID = [...CATALOGUE.endpoints.keys()][0] ?? '';
/** More than any account here holds: a hold of it is refused with the spendable balance in its 402. */
const BEYOND_ANY_BALANCE = parseUsd('1000000000');

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

interface Owner {
  accountId: string;
  workspaceId: string;
  keyId: string;
}

async function funded(creditsUsd: string): Promise<{ store: Store; owner: Owner }> {
  const store = await openStore('sqlite::memory:');
  opened.push(store);
  const created = await createAccount(store, { name: 'Ada', creditsUsd });
  return { store, owner: { accountId: created.accountId, workspaceId: created.workspaceId, keyId: created.keyId } };
}

/** The ledger of one gateway process keeping its open holds in memory, as instance `inst_a`. */
function inProcess(store: Store, options: LedgerOptions = {}): Ledger {
  return createLedger(store, { holdsInProcess: true, instanceId: 'inst_a', ...options });
}

function request(owner: Owner, generationId: string, amount: Units, limits?: ScopeLimits): HoldRequest {
  return { ...holdRequest(owner, generationId, amount), ...(limits && { limits }) };
}

/** The final record of a hold's generation, served and costing `cost`. */
function served(hold: HoldRequest, cost: Units): GenerationRecord {
  return {
    ...hold.pending, status: 'success', finishReason: 'stop', endpointId: ENDPOINT_ID, promptTokens: 12, completionTokens: 30,
    cost, costLines: [{ key: 'prompt', quantity: '12', amount: cost }],
  };
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

let probes = 0;

/** What the ledger lets the account hold now, as the 402 of a hold no balance covers states it. */
async function spendable(ledger: Ledger, owner: Owner): Promise<Units> {
  probes += 1;
  const error = await refusal(ledger.hold(request(owner, `probe-${probes}`, BEYOND_ANY_BALANCE)));
  return BigInt(String(error.metadata['spendable']));
}

async function money(store: Store): Promise<{ balance: Units; reserved: Units }> {
  const row = await store.db.selectFrom('accounts').select(['balance_units', 'reserved_units']).executeTakeFirstOrThrow();
  return { balance: BigInt(row.balance_units), reserved: BigInt(row.reserved_units) };
}

function charges(store: Store): Promise<Array<{ generation_id: string; amount_units: string }>> {
  return recordedCharges(store.db);
}

function read(store: Store, owner: Owner, id: string): Promise<GenerationRecord | null> {
  return createGenerationReader(store).get(id, owner.accountId);
}

describe("holds kept in the process's memory, on 'sqlite'", () => {
  describe('taking a hold', () => {
    it('writes nothing to the database: no holds row, no pending generation, reserved_units untouched', async () => {
      const { store, owner } = await funded('5');
      await inProcess(store).hold(request(owner, 'g1', parseUsd('1')));
      expect(await openHolds(store.db)).toEqual([]);
      expect(await store.db.selectFrom('generations').selectAll().execute()).toEqual([]);
      const account = await store.db.selectFrom('accounts').select(['balance_units', 'reserved_units']).executeTakeFirstOrThrow();
      expect(account).toEqual({ balance_units: parseUsd('5').toString(), reserved_units: '0' });
      expect(await store.db.selectFrom('ledger_entries').select('kind').execute()).toEqual([{ kind: 'deposit' }]);
    });

    it('reserves exactly: the next hold sees the spendable balance less the first, down to 10^-24 USD', async () => {
      const { store, owner } = await funded('1');
      const ledger = inProcess(store);
      await ledger.hold(request(owner, 'g1', parseUsd('0.75')));
      const error = await refusal(ledger.hold(request(owner, 'g2', parseUsd('0.250000000000000000000001'))));
      expect(error.status).toBe(402);
      expect(error.errorType).toBe('payment_required');
      expect(error.metadata).toEqual({ required: '250000000000000000000001', spendable: '250000000000000000000000' });
      await ledger.hold(request(owner, 'g3', parseUsd('0.25')));
      expect((await refusal(ledger.hold(request(owner, 'g4', 1n)))).metadata).toEqual({ required: '1', spendable: '0' });
    });

    it('50 concurrent holds against a balance covering 10 never overspend: exactly 10 are held, the rest refused with 402', async () => {
      const { store, owner } = await funded('10');
      const ledger = inProcess(store);
      const outcomes = await Promise.allSettled(Array.from({ length: 50 }, (_, index) => ledger.hold(request(owner, `g${index}`, parseUsd('1')))));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ status: 402, metadata: { required: parseUsd('1').toString() } });
      }
      expect(await spendable(ledger, owner)).toBe(0n);
      expect(await money(store)).toEqual({ balance: parseUsd('10'), reserved: 0n });
    });

    it('holds taken while settlements commit never overspend: they admit exactly what the settlements freed, once committed', async () => {
      const { store, owner } = await funded('10');
      const ledger = inProcess(store);
      const first = await Promise.all(Array.from({ length: 10 }, (_, index) => ledger.hold(request(owner, `a${index}`, parseUsd('1')))));
      let settled = false;
      const settling = Promise.all(first.map((hold) => ledger.settle(hold, served(hold, parseUsd('0.5'))))).then(() => {
        settled = true;
      });
      const admitted: Hold[] = [];
      // 20 holds tried at once on every turn of the event loop while the settlements are written, and once after
      for (let turn = 0; ; turn += 1) {
        const wasSettled = settled;
        const burst = await Promise.allSettled(Array.from({ length: 20 }, (_, index) => ledger.hold(request(owner, `b${turn}-${index}`, parseUsd('0.5')))));
        for (const outcome of burst) if (outcome.status === 'fulfilled') admitted.push(outcome.value);
        if (wasSettled) break;
        await new Promise((resolve) => setImmediate(resolve));
      }
      await settling;
      expect(admitted).toHaveLength(10);
      await Promise.all(admitted.map((hold) => ledger.settle(hold, served(hold, parseUsd('0.5')))));
      expect(await money(store)).toEqual({ balance: 0n, reserved: 0n });
    });

    it('a negative amount is refused, reserving nothing', async () => {
      const { store, owner } = await funded('5');
      const ledger = inProcess(store);
      await expect(ledger.hold(request(owner, 'g1', -1n))).rejects.toThrow(RangeError);
      expect(await spendable(ledger, owner)).toBe(parseUsd('5'));
    });

    it('a deposit made meanwhile is spendable by the next hold at once', async () => {
      const { store, owner } = await funded('1');
      const ledger = inProcess(store);
      await ledger.hold(request(owner, 'g1', parseUsd('1')));
      expect(await spendable(ledger, owner)).toBe(0n);
      await addCredits(store, owner.accountId, '2');
      await ledger.hold(request(owner, 'g2', parseUsd('2')));
      expect(await spendable(ledger, owner)).toBe(0n);
    });

    it('reserved_units left by a hold taken in the database still count against the balance', async () => {
      const { store, owner } = await funded('1');
      await createLedger(store).hold(request(owner, 'g0', parseUsd('0.4')));
      expect(await money(store)).toEqual({ balance: parseUsd('1'), reserved: parseUsd('0.4') });
      const ledger = inProcess(store);
      expect(await spendable(ledger, owner)).toBe(parseUsd('0.6'));
      await ledger.hold(request(owner, 'g1', parseUsd('0.6')));
      expect((await refusal(ledger.hold(request(owner, 'g2', 1n)))).metadata).toEqual({ required: '1', spendable: '0' });
    });
  });

  describe('accounts apart', () => {
    it('one account\'s holds reserve nothing of another\'s balance, and each account reads back only its own reserve', async () => {
      const { store, owner } = await funded('5');
      const other = await createAccount(store, { name: 'Grace', creditsUsd: '5' });
      const otherOwner = { accountId: other.accountId, workspaceId: other.workspaceId, keyId: other.keyId };
      const ledger = inProcess(store);
      await ledger.hold(request(owner, 'g1', parseUsd('4')));
      expect(await spendable(ledger, otherOwner)).toBe(parseUsd('5'));
      expect(ledger.reservedInProcess?.(owner.accountId)).toBe(parseUsd('4'));
      expect(ledger.reservedInProcess?.(other.accountId)).toBe(0n);
    });
  });

  describe('settlements written together', () => {
    it('settlements arriving together are one write: each record once, the balance and every spend row moved by their exact sum', async () => {
      const { store, owner } = await funded('10');
      const ledger = inProcess(store);
      const holds = await Promise.all(Array.from({ length: 20 }, (_, index) => ledger.hold(request(owner, `g${index}`, parseUsd('0.4')))));
      const costs = holds.map((_, index) => parseUsd('0.01') + BigInt(index));
      const writes: unknown[] = [];
      const write = store.writeStatement;
      store.writeStatement = (work) => {
        writes.push(work);
        return write(work);
      };
      await Promise.all([
        ...holds.map((hold, index) => ledger.settle(hold, served(hold, costs[index] ?? 0n))),
        // a second settlement of one hold in the same write charges nothing more
        ledger.settle(holds[0] as Hold, served(holds[0] as Hold, costs[0] ?? 0n)),
      ]);
      expect(writes).toHaveLength(1);
      const total = costs.reduce((sum, cost) => sum + cost, 0n);
      expect(await money(store)).toEqual({ balance: parseUsd('10') - total, reserved: 0n });
      expect(await charges(store)).toHaveLength(20);
      const now = new Date();
      for (const scope of ['key', 'workspace', 'account'] as const) {
        const id = scope === 'key' ? owner.keyId : scope === 'workspace' ? owner.workspaceId : owner.accountId;
        expect(await readScopeUsage(store.db, { scope, id }, now), scope).toMatchObject({ total, daily: total });
      }
      expect(await spendable(ledger, owner)).toBe(parseUsd('10') - total);
    });

    it('settlements of fifteen keys written together move each key\'s spend by its own charge, and the workspace\'s and account\'s by the sum of them all', async () => {
      const { store, owner } = await funded('10');
      const ledger = inProcess(store);
      // 34 spend rows (each key's day and lifetime, the workspace's and the account's): more than one statement adds to
      const keys = await Promise.all(Array.from({ length: 15 }, (_, index) => createKey(store, { accountId: owner.accountId, name: `k${index}` })));
      const holds = await Promise.all(keys.map(({ id }, index) => ledger.hold(request({ ...owner, keyId: id }, `g${index}`, parseUsd('0.4')))));
      const costs = holds.map((_, index) => parseUsd('0.01') * BigInt(index + 1) + 3n);
      await Promise.all(holds.map((hold, index) => ledger.settle(hold, served(hold, costs[index] ?? 0n))));
      const now = new Date();
      for (const [index, { id }] of keys.entries()) {
        expect(await readScopeUsage(store.db, { scope: 'key', id }, now), `key ${index}`).toMatchObject({ total: costs[index], daily: costs[index] });
      }
      const total = costs.reduce((sum, cost) => sum + cost, 0n);
      expect(await readScopeUsage(store.db, { scope: 'workspace', id: owner.workspaceId }, now)).toMatchObject({ total, daily: total });
      expect(await readScopeUsage(store.db, { scope: 'account', id: owner.accountId }, now)).toMatchObject({ total, daily: total });
      expect(await money(store)).toEqual({ balance: parseUsd('10') - total, reserved: 0n });
    });

    it('a write that fails refuses every settlement in it: nothing is charged or recorded, and their holds keep reserving', async () => {
      const { store, owner } = await funded('10');
      const ledger = inProcess(store);
      const first = await ledger.hold(request(owner, 'g1', parseUsd('1')));
      const second = await ledger.hold(request(owner, 'g2', parseUsd('1')));
      // the spend rows cannot be written: the write fails after the records, as it moves the money
      await sql`CREATE TRIGGER spend_refused BEFORE INSERT ON spend_usage BEGIN SELECT RAISE(ABORT, 'spend refused'); END`.execute(store.db);
      const outcomes = await Promise.allSettled([ledger.settle(first, served(first, parseUsd('0.5'))), ledger.settle(second, served(second, parseUsd('0.5')))]);
      expect(outcomes.map((outcome) => outcome.status)).toEqual(['rejected', 'rejected']);
      expect(await read(store, owner, 'g1')).toBeNull();
      expect(await read(store, owner, 'g2')).toBeNull();
      expect((await money(store)).balance).toBe(parseUsd('10'));
      expect(await spendable(ledger, owner)).toBe(parseUsd('8'));
    });
  });

  describe('settling and releasing', () => {
    it('settle charges the exact cost once however often it is called, also at once, writes the final record and frees the reservation', async () => {
      const { store, owner } = await funded('5');
      const ledger = inProcess(store);
      const hold = await ledger.hold(request(owner, 'g1', parseUsd('1')));
      const cost = parseUsd('0.300000000000000000000007');
      const generation = served(hold, cost);
      await Promise.all([ledger.settle(hold, generation), ledger.settle(hold, { ...generation, cost: parseUsd('0.5') })]);
      await ledger.settle(hold, generation);
      expect(await charges(store)).toEqual([{ generation_id: 'g1', amount_units: cost.toString() }]);
      expect(await read(store, owner, 'g1')).toEqual(generation);
      expect(await money(store)).toEqual({ balance: parseUsd('5') - cost, reserved: 0n });
      expect(await spendable(ledger, owner)).toBe(parseUsd('5') - cost);
      expect(await openHolds(store.db)).toEqual([]);
    });

    it('release charges nothing, records the generation with cost 0 and frees the reservation; a later settle charges nothing', async () => {
      const { store, owner } = await funded('5');
      const ledger = inProcess(store);
      const hold = await ledger.hold(request(owner, 'g1', parseUsd('1')));
      await ledger.release(hold, served(hold, parseUsd('0.3')));
      expect(await spendable(ledger, owner)).toBe(parseUsd('5'));
      expect(await read(store, owner, 'g1')).toMatchObject({ status: 'success', cost: 0n, costLines: [{ key: 'prompt', quantity: '12', amount: 0n }] });
      await ledger.settle(hold, served(hold, parseUsd('0.3')));
      expect(await charges(store)).toEqual([]);
      expect(await money(store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
    });

    it('release without a record frees the reservation and records the generation as a 500 costing nothing', async () => {
      const { store, owner } = await funded('5');
      const ledger = inProcess(store);
      const hold = await ledger.hold(request(owner, 'g1', parseUsd('1')));
      await ledger.release(hold);
      await ledger.release(hold);
      expect(await spendable(ledger, owner)).toBe(parseUsd('5'));
      expect(await read(store, owner, 'g1')).toMatchObject({ status: 'error', errorCode: 500, finishReason: 'error', cost: 0n, costLines: [] });
      expect(await money(store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
    });

    it('a charge above its hold is refused, writing nothing: the hold keeps reserving until released', async () => {
      const { store, owner } = await funded('5');
      const ledger = inProcess(store);
      const hold = await ledger.hold(request(owner, 'g1', parseUsd('0.3')));
      await expect(ledger.settle(hold, served(hold, parseUsd('0.300000000000000000000001')))).rejects.toThrow(RangeError);
      expect(await store.db.selectFrom('generations').selectAll().execute()).toEqual([]);
      expect(await charges(store)).toEqual([]);
      expect(await spendable(ledger, owner)).toBe(parseUsd('4.7'));
      await ledger.release(hold);
      expect(await spendable(ledger, owner)).toBe(parseUsd('5'));
    });
  });

  describe('expiry', () => {
    it('releaseExpired drops the holds past their expiry and returns how many; live ones keep reserving', async () => {
      const { store, owner } = await funded('5');
      let now = new Date('2030-01-01T00:00:00Z');
      const ledger = inProcess(store, { holdTtlMs: 60_000, now: () => now });
      const old = await ledger.hold(request(owner, 'g1', parseUsd('1')));
      expect(old.expiresAt.toISOString()).toBe('2030-01-01T00:01:00.000Z');
      now = new Date('2030-01-01T00:00:30Z');
      await ledger.hold(request(owner, 'g2', parseUsd('2')));
      expect(await ledger.releaseExpired(new Date('2030-01-01T00:01:00Z'))).toBe(1);
      expect(await spendable(ledger, owner)).toBe(parseUsd('3'));
      expect(await ledger.releaseExpired(new Date('2030-01-01T00:01:00Z'))).toBe(0);
    });

    it('releaseExpired still sweeps expired holds taken in the database, counting them with its own', async () => {
      const { store, owner } = await funded('5');
      const now = new Date('2030-01-01T00:00:00Z');
      await createLedger(store, { now: () => now }).hold(request(owner, 'g0', parseUsd('0.4')));
      const ledger = inProcess(store, { now: () => now });
      await ledger.hold(request(owner, 'g1', parseUsd('1')));
      expect(await ledger.releaseExpired(new Date('2030-01-02T00:00:00Z'))).toBe(2);
      expect(await money(store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
      expect(await spendable(ledger, owner)).toBe(parseUsd('5'));
    });

    it('a hold taken in the database and settled by this process gives its reserve back with the settlement, not at its expiry', async () => {
      const { store, owner } = await funded('5');
      const earlier = await createLedger(store).hold(request(owner, 'g0', parseUsd('0.4')));
      const ledger = inProcess(store);
      await ledger.settle(earlier, served(earlier, parseUsd('0.1')));
      expect(await money(store)).toEqual({ balance: parseUsd('4.9'), reserved: 0n });
      expect(await openHolds(store.db)).toEqual([]);
      expect(await spendable(ledger, owner)).toBe(parseUsd('4.9'));
      await ledger.settle(earlier, served(earlier, parseUsd('0.1')));
      expect(await money(store)).toEqual({ balance: parseUsd('4.9'), reserved: 0n });
    });

    it('a settle arriving after its hold expired and was dropped still charges, once', async () => {
      const { store, owner } = await funded('5');
      const now = new Date('2030-01-01T00:00:00Z');
      const ledger = inProcess(store, { now: () => now });
      const hold = await ledger.hold(request(owner, 'g1', parseUsd('1')));
      expect(await ledger.releaseExpired(new Date('2030-01-02T00:00:00Z'))).toBe(1);
      await ledger.settle(hold, served(hold, parseUsd('0.4')));
      await ledger.settle(hold, served(hold, parseUsd('0.4')));
      expect(await charges(store)).toEqual([{ generation_id: 'g1', amount_units: parseUsd('0.4').toString() }]);
      expect(await money(store)).toEqual({ balance: parseUsd('4.6'), reserved: 0n });
    });
  });

  describe('spend limits, judged with the open holds of the process', () => {
    /** An account with 100 USD, its default workspace's key, and a key in a second workspace. */
    async function twoWorkspaces() {
      const { store, owner } = await funded('100');
      await store.db.insertInto('workspaces').values({
        id: 'ws_other', account_id: owner.accountId, name: 'Other', routing_defaults: null, created_at: Date.now(), limit_units: null, limit_reset: null,
      }).execute();
      const other = await createKey(store, { accountId: owner.accountId, workspaceId: 'ws_other' });
      return { store, owner, other: { ...owner, workspaceId: 'ws_other', keyId: other.id } };
    }

    async function spend(ledger: Ledger, held: HoldRequest, cost: Units): Promise<void> {
      const hold = await ledger.hold(held);
      await ledger.settle(hold, served(hold, cost));
    }

    it('a hold past the key limit is refused with 402 scope key, limit, used (charged and held) and limit_reset', async () => {
      const { store, owner: base } = await funded('100');
      const issued = await createKey(store, { accountId: base.accountId, limitUsd: '1', limitReset: 'daily' });
      const owner = { ...base, keyId: issued.id };
      const limits: ScopeLimits = { key: { limit: parseUsd('1'), reset: 'daily' } };
      const ledger = inProcess(store, { now: () => new Date('2030-01-01T12:00:00Z') });
      await spend(ledger, request(owner, 'g1', parseUsd('0.5'), limits), parseUsd('0.4'));
      await ledger.hold(request(owner, 'g2', parseUsd('0.5'), limits));
      const error = await refusal(ledger.hold(request(owner, 'g3', parseUsd('0.2'), limits)));
      expect(error.status).toBe(402);
      expect(error.metadata).toEqual({ scope: 'key', limit: parseUsd('1').toString(), used: parseUsd('0.9').toString(), limit_reset: 'daily' });
      await ledger.hold(request(owner, 'g4', parseUsd('0.1'), limits));
      expect((await refusal(ledger.hold(request(owner, 'g5', 0n, limits)))).metadata).toMatchObject({ scope: 'key', used: parseUsd('1').toString() });
    });

    it('a workspace limit counts the open holds of its workspace only, refusing with 402 scope workspace', async () => {
      const { store, owner, other } = await twoWorkspaces();
      const limits: ScopeLimits = { workspace: { limit: parseUsd('1'), reset: 'monthly' } };
      const ledger = inProcess(store);
      await spend(ledger, request(owner, 'g1', parseUsd('0.6'), limits), parseUsd('0.6'));
      await ledger.hold(request(owner, 'g2', parseUsd('0.3'), limits));
      const error = await refusal(ledger.hold(request(owner, 'g3', parseUsd('0.2'), limits)));
      expect(error.status).toBe(402);
      expect(error.metadata).toEqual({ scope: 'workspace', limit: parseUsd('1').toString(), used: parseUsd('0.9').toString(), limit_reset: 'monthly' });
      expect(error.message).toContain('0.9 of 1 USD');
      await ledger.hold(request(other, 'g4', parseUsd('1'), limits));
    });

    it('holds left in the database count against a limit as the process’s own do', async () => {
      const { store, owner } = await twoWorkspaces();
      const limits: ScopeLimits = { workspace: { limit: parseUsd('1'), reset: null } };
      await createLedger(store).hold(request(owner, 'g0', parseUsd('0.8'), limits));
      const ledger = inProcess(store);
      const error = await refusal(ledger.hold(request(owner, 'g1', parseUsd('0.5'), limits)));
      expect(error.metadata).toEqual({ scope: 'workspace', limit: parseUsd('1').toString(), used: parseUsd('0.8').toString(), limit_reset: null });
      await ledger.hold(request(owner, 'g2', parseUsd('0.2'), limits));
    });

    it('an account limit counts the open holds of every workspace and names scope account', async () => {
      const { store, owner, other } = await twoWorkspaces();
      const limits: ScopeLimits = { account: { limit: parseUsd('1'), reset: null } };
      const ledger = inProcess(store);
      await spend(ledger, request(owner, 'g1', parseUsd('0.5'), limits), parseUsd('0.5'));
      await ledger.hold(request(owner, 'g2', parseUsd('0.2'), limits));
      const error = await refusal(ledger.hold(request(other, 'g3', parseUsd('0.31'), limits)));
      expect(error.metadata).toEqual({ scope: 'account', limit: parseUsd('1').toString(), used: parseUsd('0.7').toString(), limit_reset: null });
      await ledger.hold(request(other, 'g4', parseUsd('0.3'), limits));
    });

    it('the narrowest scope refusing is named first: key, then workspace, then account', async () => {
      const { store, owner } = await funded('100');
      const half = { limit: parseUsd('0.5'), reset: null };
      const ledger = inProcess(store);
      const scopeOf = async (limits: ScopeLimits, id: string) => (await refusal(ledger.hold(request(owner, id, parseUsd('0.6'), limits)))).metadata['scope'];
      expect(await scopeOf({ key: half, workspace: half, account: half }, 'g1')).toBe('key');
      expect(await scopeOf({ workspace: half, account: half }, 'g2')).toBe('workspace');
      expect(await scopeOf({ account: half }, 'g3')).toBe('account');
    });

    it('once settled, a hold counts against the limit once, as its charge', async () => {
      const { store, owner } = await funded('100');
      const limits: ScopeLimits = { workspace: { limit: parseUsd('1'), reset: null } };
      const ledger = inProcess(store);
      await spend(ledger, request(owner, 'g1', parseUsd('0.6'), limits), parseUsd('0.6'));
      await ledger.hold(request(owner, 'g2', parseUsd('0.4'), limits));
      expect((await refusal(ledger.hold(request(owner, 'g3', 0n, limits)))).metadata).toMatchObject({ scope: 'workspace', used: parseUsd('1').toString() });
    });

    it('an open hold counts against the window it was taken in, and so does its charge', async () => {
      const { store, owner } = await funded('100');
      const limits: ScopeLimits = { account: { limit: parseUsd('1'), reset: 'daily' } };
      let now = new Date('2030-01-01T23:59:00Z');
      const ledger = inProcess(store, { now: () => now });
      const yesterday = await ledger.hold(request(owner, 'g1', parseUsd('0.9'), limits));
      await refusal(ledger.hold(request(owner, 'g2', parseUsd('0.2'), limits)));
      now = new Date('2030-01-02T00:01:00Z');
      const today = await ledger.hold(request(owner, 'g3', parseUsd('0.9'), limits));
      await ledger.settle(yesterday, served(yesterday, parseUsd('0.5')));
      await ledger.settle(today, served(today, parseUsd('0.5')));
      const usage = await readScopeUsage(store.db, { scope: 'account', id: owner.accountId }, now);
      expect(usage).toMatchObject({ total: parseUsd('1'), daily: parseUsd('0.5') });
    });

    it('64 concurrent holds against a workspace limit covering 10 never overspend it: exactly 10 are held', async () => {
      const { store, owner } = await funded('100');
      const limits: ScopeLimits = { workspace: { limit: parseUsd('10'), reset: 'daily' } };
      const ledger = inProcess(store);
      const outcomes = await Promise.allSettled(Array.from({ length: 64 }, (_, index) => ledger.hold(request(owner, `g${index}`, parseUsd('1'), limits))));
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(10);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') {
          expect(outcome.reason).toMatchObject({ status: 402, metadata: { scope: 'workspace', used: parseUsd('10').toString() } });
        }
      }
      expect(await money(store)).toEqual({ balance: parseUsd('100'), reserved: 0n });
      expect(await spendable(ledger, owner)).toBe(parseUsd('90'));
    });
  });

  describe('balances and usage remembered between holds', () => {
    const daily: ScopeLimits = { key: { limit: parseUsd('1'), reset: 'daily' } };

    it('a deposit committed by another connection (the admin CLI, another process) is spendable within 10 ms', async () => {
      const directory = await mkdtemp(join(tmpdir(), 'process-holds-'));
      try {
        const store = await openStore(`sqlite:${join(directory, 'ledger.db')}`);
        opened.push(store);
        const created = await createAccount(store, { name: 'Ada', creditsUsd: '1' });
        const owner = { accountId: created.accountId, workspaceId: created.workspaceId, keyId: created.keyId };
        const ledger = inProcess(store);
        await ledger.hold(request(owner, 'g1', parseUsd('1'), daily));
        expect(await spendable(ledger, owner)).toBe(0n);
        const admin = await openStore(`sqlite:${join(directory, 'ledger.db')}`);
        await addCredits(admin, owner.accountId, '2');
        await admin.close();
        // another process's commits are looked for every 10 ms
        await new Promise((resolve) => setTimeout(resolve, 20));
        expect(await spendable(ledger, owner)).toBe(parseUsd('2'));
      } finally {
        await Promise.all(opened.splice(0).map((store) => store.close()));
        await rm(directory, { recursive: true, force: true });
      }
    });

    it('a charge whose write is rolled back counts nowhere: the next hold sees the balance and the limit as they were', async () => {
      const { store, owner } = await funded('5');
      const ledger = inProcess(store);
      // read once, so that the balance and the key's window are remembered
      await ledger.release(await ledger.hold(request(owner, 'g0', parseUsd('0.1'), daily)));
      const charge = {
        amount: parseUsd('0.8'),
        owners: spendOwners(owner),
        dayStart: dayStart(new Date()),
      };
      await expect(store.write(async (tx) => {
        await ledgerTables(store, tx).moveMoney(owner.accountId, { balance: -parseUsd('0.8'), reserved: 0n }, charge);
        throw new Error('refused after the charge was written');
      })).rejects.toThrow('refused after');
      expect(await money(store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
      await ledger.hold(request(owner, 'g1', parseUsd('1'), daily));
      expect(await spendable(ledger, owner)).toBe(parseUsd('4'));
    });

    it('charges settled while remembered count in every window holding their day: a weekly limit sums the days, a daily one only today', async () => {
      const { store, owner } = await funded('100');
      const weekly: ScopeLimits = { workspace: { limit: parseUsd('1'), reset: 'weekly' } };
      let now = new Date('2030-01-01T12:00:00Z');
      const ledger = inProcess(store, { now: () => now });
      const spend = async (id: string, limits: ScopeLimits, cost: Units) => {
        const hold = await ledger.hold(request(owner, id, cost, limits));
        await ledger.settle(hold, served(hold, cost));
      };
      await spend('g1', weekly, parseUsd('0.3'));
      await spend('g2', daily, parseUsd('0.3'));
      now = new Date('2030-01-02T12:00:00Z');
      await spend('g3', weekly, parseUsd('0.4'));
      await spend('g4', daily, parseUsd('0.5'));
      // the key's day: g3 and g4; the workspace's week: all four
      expect((await refusal(ledger.hold(request(owner, 'g5', parseUsd('0.2'), daily)))).metadata).toMatchObject({ scope: 'key', used: parseUsd('0.9').toString() });
      expect((await refusal(ledger.hold(request(owner, 'g6', parseUsd('0.1'), weekly)))).metadata)
        .toMatchObject({ scope: 'workspace', used: parseUsd('1.5').toString() });
    });
  });

  describe('streams', () => {
    /** An account with 5 USD, its process ledger (`inst_a`) and that instance's checkpoints. */
    async function streaming() {
      const { store, owner } = await funded('5');
      const ledger = inProcess(store);
      const checkpoints = createGenerationCheckpoints(store, { logger, instanceId: 'inst_a' });
      return { store, owner, ledger, checkpoints };
    }

    const pendingRow = (store: Store) => store.db.selectFrom('generations')
      .select(['id', 'status', 'instance_id', 'hold_id', 'held_units', 'endpoint_id', 'completion_tokens', 'cost_units']).execute();

    it('a committed stream writes its pending generation, stamped with the instance, the hold and what it holds; checkpoints update it', async () => {
      const { store, owner, ledger, checkpoints } = await streaming();
      const hold = await ledger.hold(request(owner, 'g1', parseUsd('0.01')));
      await checkpoints.committed(hold, ENDPOINT_ID);
      expect(await pendingRow(store)).toEqual([{
        id: 'g1', status: 'pending', instance_id: 'inst_a', hold_id: hold.id, held_units: parseUsd('0.01').toString(),
        endpoint_id: ENDPOINT_ID, completion_tokens: 0, cost_units: '0',
      }]);
      expect(await read(store, owner, 'g1')).toEqual({ ...hold.pending, endpointId: ENDPOINT_ID, completionTokens: 0 });
      await checkpoints.record('g1', { endpointId: ENDPOINT_ID, completionTokens: 40, promptTokens: 12 });
      await checkpoints.committed(hold, ENDPOINT_ID);
      expect(await read(store, owner, 'g1')).toMatchObject({ status: 'pending', completionTokens: 40, promptTokens: 12 });
      // the row is the stream's checkpoint, not a reservation: the hold still reserves in memory only
      expect(await openHolds(store.db)).toEqual([]);
      expect(await money(store)).toEqual({ balance: parseUsd('5'), reserved: 0n });
      expect(await spendable(ledger, owner)).toBe(parseUsd('4.99'));
    });

    it('the settlement turns the committed row into the final record, charging once', async () => {
      const { store, owner, ledger, checkpoints } = await streaming();
      const hold = await ledger.hold(request(owner, 'g1', parseUsd('0.01')));
      await checkpoints.committed(hold, ENDPOINT_ID);
      await checkpoints.record('g1', { endpointId: ENDPOINT_ID, completionTokens: 30 });
      const generation = served(hold, parseUsd('0.004'));
      await Promise.all([ledger.settle(hold, generation), ledger.settle(hold, generation)]);
      await ledger.settle(hold, generation);
      expect(await read(store, owner, 'g1')).toEqual(generation);
      expect(await pendingRow(store)).toMatchObject([{ id: 'g1', status: 'success', instance_id: 'inst_a', cost_units: parseUsd('0.004').toString() }]);
      expect(await charges(store)).toEqual([{ generation_id: 'g1', amount_units: parseUsd('0.004').toString() }]);
      expect(await money(store)).toEqual({ balance: parseUsd('4.996'), reserved: 0n });
      expect(await spendable(ledger, owner)).toBe(parseUsd('4.996'));
    });

    it('after the process dies, its committed streams are billed from their checkpoints, never above the hold, and a late settle charges nothing more', async () => {
      const { store, owner, ledger: dead, checkpoints } = await streaming();
      const billed = await dead.hold(request(owner, 'g1', parseUsd('0.01')));
      const capped = await dead.hold(request(owner, 'g2', parseUsd('0.0001')));
      await dead.hold(request(owner, 'g3', parseUsd('1')));
      for (const hold of [billed, capped]) {
        await checkpoints.committed(hold, ENDPOINT_ID);
        await checkpoints.record(hold.generationId, { endpointId: ENDPOINT_ID, completionTokens: 100 });
      }
      // restarted: what the dead process held in memory died with it
      const restarted = inProcess(store, { instanceId: 'inst_b' });
      expect(await spendable(restarted, owner)).toBe(parseUsd('5'));
      const abandoned = createAbandonedGenerations({ store, ledger: restarted, catalogue: { current: () => CATALOGUE } });
      expect(await abandoned.settle('inst_a')).toBe(2);
      // prompt estimate 11 × 0.000001 + 100 × 0.000002
      expect(await charges(store)).toEqual([
        { generation_id: 'g1', amount_units: parseUsd('0.000211').toString() },
        { generation_id: 'g2', amount_units: parseUsd('0.0001').toString() },
      ]);
      expect(await read(store, owner, 'g1')).toMatchObject({
        status: 'error', errorCode: 500, errorMessage: STOPPED_BILLED_MESSAGE, endpointId: ENDPOINT_ID, completionTokens: 100, cost: parseUsd('0.000211'),
      });
      expect(await read(store, owner, 'g3')).toBeNull();
      await dead.settle(billed, served(billed, parseUsd('0.005')));
      expect(await charges(store)).toHaveLength(2);
      expect(await money(store)).toEqual({ balance: parseUsd('5') - parseUsd('0.000311'), reserved: 0n });
      expect(await spendable(restarted, owner)).toBe(parseUsd('5') - parseUsd('0.000311'));
    });
  });
});

const postgres = STORE_ENGINES.find((engine) => engine.name === 'postgres');

// skipped only where no PostgreSQL server answers (store-engines prints why); under CI=true it fails instead
describe.skipIf(postgres === undefined)("holds kept in the process's memory, on 'postgres'", () => {
  it('are refused: a fleet shares PostgreSQL, so its holds are kept in the database', async () => {
    if (!postgres) throw new Error('no PostgreSQL engine');
    const store = await postgres.open();
    opened.push(store);
    expect(() => createLedger(store, { holdsInProcess: true, instanceId: 'inst_a' })).toThrow(/only on SQLite/);
  });
});
