import { afterEach, describe, expect, it } from 'vitest';
import { addCredits, createAccount, createKey } from '../../../src/accounts/accounts.js';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { dayStart, monthStart, weekStart } from '../../../src/accounts/usage-window.js';
import { createLedger } from '../../../src/billing/ledger.js';
import { parseUsd } from '../../../src/billing/money.js';
import type { GenerationRecord } from '../../../src/billing/types.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { holdRequest } from '../../support/hold-request.js';

const opened: Store[] = [];

async function open(): Promise<Store> {
  const store = await openStore('sqlite::memory:');
  opened.push(store);
  return store;
}

afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

function record(id: string, owner: { accountId: string; workspaceId: string; keyId: string }, costUsd: string): GenerationRecord {
  return {
    id, ...owner, model: 'acme/chat', providerSlug: 'sim', providerName: 'Sim', endpointId: 'e', upstreamId: null,
    streamed: false, status: 'success', finishReason: 'stop', nativeFinishReason: 'stop', errorCode: null, errorMessage: null,
    estimatedPromptTokens: 1, cost: parseUsd(costUsd), costLines: [], createdAt: new Date(), latencyMs: 1, generationMs: 2,
    appTitle: null, appReferer: null, metadata: null,
  };
}

describe('accounts', () => {
  it('an account starts with its credits, a default workspace and one key, all with prefixed ids', async () => {
    const store = await open();
    const created = await createAccount(store, { name: 'Ada', creditsUsd: '12.5' });
    expect(created.accountId).toMatch(/^acct_[0-9a-f]+$/);
    expect(created.workspaceId).toMatch(/^ws_[0-9a-f]+$/);
    expect(created.keyId).toMatch(/^key_[0-9a-f]+$/);
    const account = await store.db.selectFrom('accounts').selectAll().executeTakeFirstOrThrow();
    expect(account.balance_units).toBe(parseUsd('12.5').toString());
    const entries = await store.db.selectFrom('ledger_entries').selectAll().execute();
    expect(entries).toMatchObject([{ kind: 'deposit', amount_units: parseUsd('12.5').toString() }]);
  });

  it('credits add exactly, down to 10^-24 USD', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada', creditsUsd: '0.1' });
    expect(await addCredits(store, accountId, '0.000000000000000000000001')).toBe(parseUsd('0.100000000000000000000001'));
  });

  it('invalid amounts are refused with a message naming the field', async () => {
    const store = await open();
    await expect(createAccount(store, { name: 'Ada', creditsUsd: 'ten' })).rejects.toThrow(/credits must be a decimal USD amount/);
    const { accountId } = await createAccount(store, { name: 'Ada' });
    await expect(addCredits(store, accountId, '0')).rejects.toThrow(/amount must be more than zero/);
    await expect(addCredits(store, accountId, '-1')).rejects.toThrow(/amount must be/);
    await expect(addCredits(store, 'acct_missing', '1')).rejects.toThrow(/does not exist/);
    await expect(createKey(store, { accountId, limitReset: 'daily' })).rejects.toThrow(/limit reset needs a limit/);
  });

  it('a key goes to the named workspace only when it belongs to the account', async () => {
    const store = await open();
    const first = await createAccount(store, { name: 'Ada' });
    const second = await createAccount(store, { name: 'Bob' });
    const issued = await createKey(store, { accountId: first.accountId, workspaceId: first.workspaceId, name: 'ci', management: true });
    const context = await createKeyDirectory(store).authenticate(issued.key);
    expect(context).toMatchObject({ workspaceId: first.workspaceId, name: 'ci', management: true });
    await expect(createKey(store, { accountId: first.accountId, workspaceId: second.workspaceId })).rejects.toThrow(/does not exist in account/);
  });
});

describe('key inspection', () => {
  it('reports label, limit, remaining in the window, usage per UTC window and expiry', async () => {
    const store = await open();
    const { accountId, workspaceId } = await createAccount(store, { name: 'Ada', creditsUsd: '100' });
    const expiresAt = new Date('2031-01-01T00:00:00.000Z');
    const issued = await createKey(store, { accountId, limitUsd: '10', limitReset: 'daily', expiresAt });
    const owner = { accountId, workspaceId, keyId: issued.id };
    // Wednesday 2030-05-15: charges on the previous Sunday (last week, this month) and today.
    let now = new Date('2030-05-12T10:00:00Z');
    const ledger = createLedger(store, { now: () => now });
    await ledger.settle(await ledger.hold(holdRequest(owner, 'g1', parseUsd('2'))), record('g1', owner, '1.5'));
    now = new Date('2030-05-15T09:00:00Z');
    await ledger.settle(await ledger.hold(holdRequest(owner, 'g2', parseUsd('2'))), record('g2', owner, '0.25'));
    const keys = createKeyDirectory(store, { now: () => now });
    const context = await keys.authenticate(issued.key);
    if (!context) throw new Error('key did not authenticate');
    expect(await keys.inspect(context)).toEqual({
      label: `sk-svc-v1-${issued.key.slice(10, 13)}...${issued.key.slice(-3)}`,
      name: 'API key',
      limit: 10,
      limit_remaining: 9.75,
      limit_reset: 'daily',
      usage: 1.75,
      usage_daily: 0.25,
      usage_weekly: 0.25,
      usage_monthly: 1.75,
      is_free_tier: false,
      expires_at: '2031-01-01T00:00:00.000Z',
    });
  });

  it('a key without limit has null limit and limit_remaining', async () => {
    const store = await open();
    const created = await createAccount(store, { name: 'Ada' });
    const keys = createKeyDirectory(store);
    const context = await keys.authenticate(created.key);
    if (!context) throw new Error('key did not authenticate');
    expect(await keys.inspect(context)).toMatchObject({ limit: null, limit_remaining: null, limit_reset: null, usage: 0, expires_at: null });
  });
});

describe('UTC windows', () => {
  it('days, Monday-based weeks and months start at 00:00 UTC', () => {
    const at = new Date('2030-05-12T23:59:59Z'); // a Sunday
    expect(new Date(dayStart(at)).toISOString()).toBe('2030-05-12T00:00:00.000Z');
    expect(new Date(weekStart(at)).toISOString()).toBe('2030-05-06T00:00:00.000Z');
    expect(new Date(monthStart(at)).toISOString()).toBe('2030-05-01T00:00:00.000Z');
    expect(new Date(weekStart(new Date('2030-05-13T00:00:00Z'))).toISOString()).toBe('2030-05-13T00:00:00.000Z');
  });
});
