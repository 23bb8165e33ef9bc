import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccount, createKey } from '../../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../../src/accounts/audit.js';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { readScopeUsage } from '../../../src/accounts/scope-usage.js';
import { setSpendLimit } from '../../../src/accounts/spend-limits.js';
import { dayStart } from '../../../src/accounts/usage-window.js';
import type { KeyContext, LimitReset } from '../../../src/accounts/types.js';
import { createLedger } from '../../../src/billing/ledger.js';
import { parseUsd, type Units } from '../../../src/billing/money.js';
import type { GenerationRecord, HoldRequest, Ledger } from '../../../src/billing/types.js';
import { GatewayError } from '../../../src/core/errors.js';
import type { Store } from '../../../src/store/store.js';
import { holdRequest } from '../../support/hold-request.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

const opened: Store[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

/** A hold as the pipeline takes it: owner and limits from the key as authentication reads it. */
function request(key: KeyContext, generationId: string, amount: Units): HoldRequest {
  return { ...holdRequest(key, generationId, amount), limits: key.scopeLimits };
}

function charged(hold: HoldRequest, cost: Units): GenerationRecord {
  return { ...hold.pending, status: 'success', cost, costLines: [{ key: 'prompt', quantity: '1', amount: cost }] };
}

async function spend(ledger: Ledger, key: KeyContext, generationId: string, cost: Units): Promise<void> {
  const hold = await ledger.hold(request(key, generationId, cost));
  await ledger.settle(hold, charged(hold, cost));
}

async function refusal(promise: Promise<unknown>): Promise<GatewayError> {
  const error = await promise.then(() => null, (caught: unknown) => caught);
  if (!(error instanceof GatewayError)) throw new Error(`expected a GatewayError, got ${String(error)}`);
  return error;
}

const usd = (amount: string): SpendLimitInput => ({ limit: parseUsd(amount), reset: null });
type SpendLimitInput = { limit: Units; reset: LimitReset | null };

describe.each(STORE_ENGINES)('spend limits on three scopes, on $name', (engine) => {
  /** An account with 100 USD, a second workspace, and a key in each workspace. */
  async function account(store?: Store) {
    const db = store ?? (await engine.open());
    if (!store) opened.push(db);
    const created = await createAccount(db, { name: 'Acme', creditsUsd: '100' });
    const other = await db.db.insertInto('workspaces').values({ id: 'ws_other', account_id: created.accountId, name: 'Other', routing_defaults: null, created_at: Date.now(), limit_units: null, limit_reset: null }).execute()
      .then(() => createKey(db, { accountId: created.accountId, workspaceId: 'ws_other' }));
    const keys = createKeyDirectory(db);
    const context = async (raw: string): Promise<KeyContext> => {
      const key = await keys.authenticate(raw);
      if (!key) throw new Error('key does not authenticate');
      return key;
    };
    return { store: db, created, keys, context, firstKey: created.key, otherKey: other.key };
  }

  it('a workspace limit refuses a hold past it with 402 scope workspace, limit, used and limit_reset; keys of other workspaces are unaffected', async () => {
    const fixture = await account();
    await setSpendLimit(fixture.store, { scope: 'workspace', workspaceId: fixture.created.workspaceId }, { limit: parseUsd('1'), reset: 'monthly' }, CLI_CHANGE);
    const key = await fixture.context(fixture.firstKey);
    expect(key.scopeLimits.workspace).toEqual({ limit: parseUsd('1'), reset: 'monthly' });
    const ledger = createLedger(fixture.store);
    await spend(ledger, key, 'g1', parseUsd('0.6'));
    await ledger.hold(request(key, 'g2', parseUsd('0.3')));
    const error = await refusal(ledger.hold(request(key, 'g3', parseUsd('0.2'))));
    expect(error.status).toBe(402);
    expect(error.metadata).toEqual({ scope: 'workspace', limit: parseUsd('1').toString(), used: parseUsd('0.9').toString(), limit_reset: 'monthly' });
    expect(error.message).toContain('0.9 of 1 USD');
    await ledger.hold(request(await fixture.context(fixture.otherKey), 'g4', parseUsd('5')));
  });

  it('an account limit covers every workspace and names scope account', async () => {
    const fixture = await account();
    await setSpendLimit(fixture.store, { scope: 'account', accountId: fixture.created.accountId }, usd('1'), CLI_CHANGE);
    const ledger = createLedger(fixture.store);
    await spend(ledger, await fixture.context(fixture.firstKey), 'g1', parseUsd('0.7'));
    const error = await refusal(ledger.hold(request(await fixture.context(fixture.otherKey), 'g2', parseUsd('0.31'))));
    expect(error.metadata).toEqual({ scope: 'account', limit: parseUsd('1').toString(), used: parseUsd('0.7').toString(), limit_reset: null });
    await ledger.hold(request(await fixture.context(fixture.otherKey), 'g3', parseUsd('0.3')));
  });

  it('the narrowest scope refusing is named first: key, then workspace, then account', async () => {
    const fixture = await account();
    const limited = await createKey(fixture.store, { accountId: fixture.created.accountId, limitUsd: '0.5' });
    await setSpendLimit(fixture.store, { scope: 'workspace', workspaceId: fixture.created.workspaceId }, usd('0.5'), CLI_CHANGE);
    await setSpendLimit(fixture.store, { scope: 'account', accountId: fixture.created.accountId }, usd('0.5'), CLI_CHANGE);
    const ledger = createLedger(fixture.store);
    const error = await refusal(ledger.hold(request(await fixture.context(limited.key), 'g1', parseUsd('0.6'))));
    expect(error.metadata['scope']).toBe('key');
    const workspaceError = await refusal(ledger.hold(request(await fixture.context(fixture.firstKey), 'g2', parseUsd('0.6'))));
    expect(workspaceError.metadata['scope']).toBe('workspace');
    const accountError = await refusal(ledger.hold(request(await fixture.context(fixture.otherKey), 'g3', parseUsd('0.6'))));
    expect(accountError.metadata['scope']).toBe('account');
  });

  it('a charge is kept exactly on the key, its workspace and its account, per UTC day and in all', async () => {
    const fixture = await account();
    const key = await fixture.context(fixture.firstKey);
    const ledger = createLedger(fixture.store, { now: () => new Date('2030-01-02T10:00:00Z') });
    const cost = parseUsd('0.000000000000000000000007');
    await spend(ledger, key, 'g1', cost);
    await spend(ledger, key, 'g2', cost);
    const at = new Date('2030-01-02T11:00:00Z');
    for (const ref of [{ scope: 'key', id: key.keyId }, { scope: 'workspace', id: key.workspaceId }, { scope: 'account', id: key.accountId }] as const) {
      expect(await readScopeUsage(fixture.store.db, ref, at)).toEqual({ total: 2n * cost, daily: 2n * cost, weekly: 2n * cost, monthly: 2n * cost });
    }
    expect((await readScopeUsage(fixture.store.db, { scope: 'key', id: key.keyId }, new Date('2030-01-03T00:00:00Z'))).daily).toBe(0n);
  });

  it('weeks start on Monday 00:00 UTC: a weekly limit spent on Sunday is available again on Monday', async () => {
    const fixture = await account();
    await setSpendLimit(fixture.store, { scope: 'workspace', workspaceId: fixture.created.workspaceId }, { limit: parseUsd('1'), reset: 'weekly' }, CLI_CHANGE);
    const key = await fixture.context(fixture.firstKey);
    let now = new Date('2030-01-06T23:59:59Z'); // a Sunday
    const ledger = createLedger(fixture.store, { now: () => now });
    await spend(ledger, key, 'g1', parseUsd('1'));
    await refusal(ledger.hold(request(key, 'g2', parseUsd('0.01'))));
    now = new Date('2030-01-07T00:00:00Z'); // Monday
    await ledger.hold(request(key, 'g3', parseUsd('1')));
  });

  it('a hold counts against the window it was taken in, and so does its charge', async () => {
    const fixture = await account();
    await setSpendLimit(fixture.store, { scope: 'account', accountId: fixture.created.accountId }, { limit: parseUsd('1'), reset: 'daily' }, CLI_CHANGE);
    const key = await fixture.context(fixture.firstKey);
    let now = new Date('2030-01-01T23:59:00Z');
    const ledger = createLedger(fixture.store, { now: () => now });
    const yesterday = await ledger.hold(request(key, 'g1', parseUsd('0.9')));
    await refusal(ledger.hold(request(key, 'g2', parseUsd('0.2'))));
    now = new Date('2030-01-02T00:01:00Z');
    // the open hold of yesterday does not count against today's window
    const today = await ledger.hold(request(key, 'g3', parseUsd('0.9')));
    await ledger.settle(yesterday, charged(yesterday, parseUsd('0.5')));
    await ledger.settle(today, charged(today, parseUsd('0.5')));
    const usage = await readScopeUsage(fixture.store.db, { scope: 'account', id: key.accountId }, now);
    expect(usage).toMatchObject({ total: parseUsd('1'), daily: parseUsd('0.5') });
  });

  it("a scope is judged on its own open holds, not on the whole account's reserve: another workspace's holds take nothing of its limit", async () => {
    const fixture = await account();
    await setSpendLimit(fixture.store, { scope: 'workspace', workspaceId: fixture.created.workspaceId }, { limit: parseUsd('1'), reset: 'daily' }, CLI_CHANGE);
    const key = await fixture.context(fixture.firstKey);
    const ledger = createLedger(fixture.store);
    await ledger.hold(request(await fixture.context(fixture.otherKey), 'g1', parseUsd('50')));
    await ledger.hold(request(key, 'g2', parseUsd('0.8')));
    const error = await refusal(ledger.hold(request(key, 'g3', parseUsd('0.3'))));
    expect(error.metadata).toMatchObject({ scope: 'workspace', used: parseUsd('0.8').toString() });
    const reserved = await fixture.store.db.selectFrom('accounts').select('reserved_units').executeTakeFirstOrThrow();
    expect(BigInt(reserved.reserved_units)).toBe(parseUsd('50.8'));
  });

  it('a hold alone that its charges and the reserve leave room for is taken in one transaction, to the last unit of the limit; past it, judged again and refused', async () => {
    const fixture = await account();
    const { workspaceId, accountId } = fixture.created;
    await setSpendLimit(fixture.store, { scope: 'workspace', workspaceId }, { limit: parseUsd('1'), reset: 'daily' }, CLI_CHANGE);
    await setSpendLimit(fixture.store, { scope: 'account', accountId }, { limit: parseUsd('2'), reset: 'monthly' }, CLI_CHANGE);
    const key = await fixture.context(fixture.firstKey);
    let transactions = 0;
    const counted: Store = { ...fixture.store, write: (work) => { transactions += 1; return fixture.store.write(work); } };
    const ledger = createLedger(counted);
    await spend(ledger, key, 'g1', parseUsd('0.25'));
    transactions = 0;
    await ledger.hold(request(key, 'g2', parseUsd('0.5')));
    // charged 0.25 + reserved 0.5 + 0.25 is the workspace's limit exactly
    await ledger.hold(request(key, 'g3', parseUsd('0.25')));
    expect(transactions).toBe(2);
    const error = await refusal(ledger.hold(request(key, 'g4', 1n)));
    expect(error.metadata).toMatchObject({ scope: 'workspace', used: parseUsd('1').toString() });
    expect(transactions).toBe(4);
    // a scope at its limit refuses even a hold of nothing
    expect((await refusal(ledger.hold(request(key, 'g5', 0n)))).metadata).toMatchObject({ scope: 'workspace' });
    expect(transactions).toBe(6);
    const reserved = await fixture.store.db.selectFrom('accounts').select('reserved_units').where('id', '=', accountId).executeTakeFirstOrThrow();
    expect(BigInt(reserved.reserved_units)).toBe(parseUsd('0.75'));
  });

  it('64 concurrent holds against a workspace limit covering 10 never overspend it, from two connections', async () => {
    const [first, second] = await engine.openPair();
    opened.push(second, first);
    const fixture = await account(first);
    await setSpendLimit(first, { scope: 'workspace', workspaceId: fixture.created.workspaceId }, { limit: parseUsd('10'), reset: 'daily' }, CLI_CHANGE);
    const key = await fixture.context(fixture.firstKey);
    const ledgers = [createLedger(first), createLedger(second)];
    const outcomes = await Promise.allSettled(Array.from({ length: 64 }, (_, index) =>
      ledgers[index % 2]!.hold(request(key, `g${index}`, parseUsd('1')))));
    const held = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(held).toHaveLength(10);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ status: 402, metadata: { scope: 'workspace' } });
    }
    const reserved = await first.db.selectFrom('accounts').select('reserved_units').executeTakeFirstOrThrow();
    expect(BigInt(reserved.reserved_units)).toBe(parseUsd('10'));
  });

  it.skipIf(engine.name !== 'postgres')('a charge committed while a hold waits for the account\'s lock counts against its limit: the usage is read once the lock is held', async () => {
    const [first, second] = await engine.openPair();
    opened.push(second, first);
    const fixture = await account(first);
    const { workspaceId, accountId } = fixture.created;
    await setSpendLimit(first, { scope: 'workspace', workspaceId }, { limit: parseUsd('1'), reset: 'daily' }, CLI_CHANGE);
    const key = await fixture.context(fixture.firstKey);
    const waiting = async () => Number((await sql<{ waiting: string }>`SELECT count(*) AS waiting FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()`.execute(first.db)).rows[0]?.waiting);
    let hold: Promise<unknown> | undefined;
    // another instance's settlement, holding the account's row while it writes its charge
    await second.write(async (tx) => {
      await sql`SELECT id FROM accounts WHERE id = ${accountId} FOR UPDATE`.execute(tx);
      hold = createLedger(first).hold(request(key, 'g1', parseUsd('0.6'))).catch((error: unknown) => error);
      while ((await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 10));
      await tx.insertInto('spend_usage').values({ scope: 'workspace', scope_id: workspaceId, day_start: dayStart(new Date()), amount_units: parseUsd('0.6').toString() }).execute();
    });
    expect(await hold).toMatchObject({ status: 402, metadata: { scope: 'workspace', used: parseUsd('0.6').toString() } });
  });

  it('holds of one account arriving together share transactions, and are judged in the order they came, as one after another', async () => {
    const fixture = await account();
    const { accountId, workspaceId } = fixture.created;
    await setSpendLimit(fixture.store, { scope: 'account', accountId }, { limit: parseUsd('40'), reset: 'monthly' }, CLI_CHANGE);
    await setSpendLimit(fixture.store, { scope: 'workspace', workspaceId }, { limit: parseUsd('15'), reset: 'weekly' }, CLI_CHANGE);
    await setSpendLimit(fixture.store, { scope: 'workspace', workspaceId: 'ws_other' }, usd('30'), CLI_CHANGE);
    const keys = [await fixture.context(fixture.firstKey), await fixture.context(fixture.otherKey)];
    let transactions = 0;
    const counted: Store = { ...fixture.store, write: (work) => { transactions += 1; return fixture.store.write(work); } };
    const ledger = createLedger(counted);
    const asks = Array.from({ length: 40 }, (_, index) => ({ key: keys[index % 3 === 0 ? 1 : 0]!, amount: parseUsd(String(1 + (index % 4))) }));
    const outcomes = await Promise.allSettled(asks.map(({ key, amount }, index) => ledger.hold(request(key, `g${index}`, amount))));
    // the same holds one after another: each workspace's limit, then the account's
    const used = new Map<string, Units>();
    const limits = new Map([[workspaceId, parseUsd('15')], ['ws_other', parseUsd('30')], [accountId, parseUsd('40')]]);
    const expected = asks.map(({ key, amount }) => {
      for (const scope of [key.workspaceId, accountId]) {
        if ((used.get(scope) ?? 0n) + amount > limits.get(scope)!) return { refused: scope === accountId ? 'account' : 'workspace', used: used.get(scope) ?? 0n };
      }
      for (const scope of [key.workspaceId, accountId]) used.set(scope, (used.get(scope) ?? 0n) + amount);
      return null;
    });
    outcomes.forEach((outcome, index) => {
      const refused = expected[index];
      if (!refused) expect(outcome.status).toBe('fulfilled');
      else expect(outcome).toMatchObject({ status: 'rejected', reason: { status: 402, metadata: { scope: refused.refused, used: refused.used.toString() } } });
    });
    expect(expected.filter((refused) => refused === null).length).toBeGreaterThan(5);
    expect(expected.filter((refused) => refused !== null).length).toBeGreaterThan(5);
    expect(transactions).toBeLessThan(asks.length / 4);
    const reserved = await fixture.store.db.selectFrom('accounts').select('reserved_units').executeTakeFirstOrThrow();
    expect(BigInt(reserved.reserved_units)).toBe(used.get(accountId));
  });

  it('holds arriving together that fit their windows together all pass at once, each with its pending record; a hold of nothing on a window they fill to its limit is still refused', async () => {
    const fixture = await account();
    const { accountId } = fixture.created;
    await setSpendLimit(fixture.store, { scope: 'account', accountId }, usd('10'), CLI_CHANGE);
    const key = await fixture.context(fixture.firstKey);
    let transactions = 0;
    const counted: Store = { ...fixture.store, write: (work) => { transactions += 1; return fixture.store.write(work); } };
    const ledger = createLedger(counted);
    // the first is written alone; the others arrive while it is, and are decided together
    const fitting = await Promise.all(['1', '2', '3'].map((amount, index) => ledger.hold(request(key, `g${index}`, parseUsd(amount)))));
    expect(transactions).toBe(2);
    const pending = await fixture.store.db.selectFrom('generations').select('id').where('status', '=', 'pending').orderBy('id').execute();
    expect(pending.map(({ id }) => id)).toEqual(fitting.map((hold) => hold.generationId).sort());
    const outcomes = await Promise.allSettled(['1', '3', '0'].map((amount, index) => ledger.hold(request(key, `h${index}`, parseUsd(amount)))));
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(outcomes[2]).toMatchObject({ reason: { status: 402, metadata: { scope: 'account', used: parseUsd('10').toString() } } });
    const reserved = await fixture.store.db.selectFrom('accounts').select('reserved_units').executeTakeFirstOrThrow();
    expect(BigInt(reserved.reserved_units)).toBe(parseUsd('10'));
  });

  it('holds of two accounts arriving together are decided apart: one account spent out reserves nothing of the other, nor counts in its limits', async () => {
    const first = await account();
    const second = await createAccount(first.store, { name: 'Other', creditsUsd: '100' });
    await setSpendLimit(first.store, { scope: 'account', accountId: second.accountId }, usd('20'), CLI_CHANGE);
    const keys = [await first.context(first.firstKey), await first.context(second.key)];
    const ledger = createLedger(first.store);
    // 30 holds of 7 USD alternating between the accounts: the first's 100 USD covers 14, the second's limit 2
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, index) => ledger.hold(request(keys[index % 2]!, `g${index}`, parseUsd('7')))));
    const taken = (owner: number) => outcomes.filter((outcome, index) => index % 2 === owner && outcome.status === 'fulfilled').length;
    expect(taken(0)).toBe(14);
    expect(taken(1)).toBe(2);
    outcomes.forEach((outcome, index) => {
      if (outcome.status === 'fulfilled') return;
      expect(outcome.reason).toMatchObject(index % 2 === 0 ? { status: 402, metadata: { spendable: parseUsd('2').toString() } } : { status: 402, metadata: { scope: 'account', used: parseUsd('14').toString() } });
    });
    const reserved = async (accountId: string) => BigInt((await first.store.db.selectFrom('accounts').select('reserved_units').where('id', '=', accountId).executeTakeFirstOrThrow()).reserved_units);
    expect(await reserved(first.created.accountId)).toBe(parseUsd('98'));
    expect(await reserved(second.accountId)).toBe(parseUsd('14'));
  });

  it('holds of one account arriving together without limits take what the balance covers, in the order they came', async () => {
    const fixture = await account();
    const key = await fixture.context(fixture.firstKey);
    const ledger = createLedger(fixture.store);
    const outcomes = await Promise.allSettled(Array.from({ length: 30 }, (_, index) => ledger.hold(request(key, `g${index}`, parseUsd(index % 2 === 0 ? '7' : '3')))));
    let spendable = parseUsd('100');
    outcomes.forEach((outcome, index) => {
      const amount = parseUsd(index % 2 === 0 ? '7' : '3');
      if (amount <= spendable) {
        spendable -= amount;
        expect(outcome.status).toBe('fulfilled');
      } else {
        expect(outcome).toMatchObject({ status: 'rejected', reason: { status: 402, metadata: { required: amount.toString(), spendable: spendable.toString() } } });
      }
    });
    const reserved = await fixture.store.db.selectFrom('accounts').select('reserved_units').executeTakeFirstOrThrow();
    expect(BigInt(reserved.reserved_units)).toBe(parseUsd('100') - spendable);
  });

  it('a limit change reaches the next hold at once, through the key cache', async () => {
    const fixture = await account();
    const key = await fixture.context(fixture.firstKey);
    expect(key.scopeLimits).toEqual({});
    await setSpendLimit(fixture.store, { scope: 'account', accountId: fixture.created.accountId }, usd('0'), CLI_CHANGE);
    const ledger = createLedger(fixture.store);
    const error = await refusal(ledger.hold(request(await fixture.context(fixture.firstKey), 'g1', 0n)));
    expect(error.metadata['scope']).toBe('account');
    await setSpendLimit(fixture.store, { scope: 'account', accountId: fixture.created.accountId }, null, CLI_CHANGE);
    await ledger.hold(request(await fixture.context(fixture.firstKey), 'g2', 0n));
  });
});
