import { describe, expect, it } from 'vitest';
import { listAccounts, readAccountOverview } from '../../../src/accounts/account-overview.js';
import { addCredits, createAccount, setAccountSuspended } from '../../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../../src/accounts/audit.js';
import { setSpendLimit } from '../../../src/accounts/spend-limits.js';
import { dayStart } from '../../../src/accounts/usage-window.js';
import { setWorkspaceRoutingDefaults } from '../../../src/accounts/workspace-routing.js';
import { createWorkspace } from '../../../src/accounts/workspaces.js';
import { ledgerTables } from '../../../src/billing/ledger-engine.js';
import { parseUsd, type Units } from '../../../src/billing/money.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';

const DAY_MS = 86_400_000;

describe.each(STORE_ENGINES)('account overview on $name', (engine) => {
  const open = storeOpener(engine);
  /** A charge's spend as settlement counts it: the key's, workspace's and account's day and lifetime spend. */
  async function spend(store: Store, owners: { key: string; workspace: string; account: string }, day: Date, usd: string): Promise<void> {
    await store.write(async (tx) => {
      await ledgerTables(store, tx).moveMoney(owners.account, { balance: 0n, reserved: 0n }, { amount: parseUsd(usd), owners, dayStart: dayStart(day) });
    });
  }
  async function setMoney(store: Store, accountId: string, balance: Units, reserved: Units): Promise<void> {
    await store.write((tx) => ledgerTables(store, tx).writeAccount(accountId, { balance, reserved }));
  }

  it('sums every deposit exactly as total credits, and the account\'s lifetime charges as total usage', async () => {
    const store = await open();
    const { accountId, workspaceId, keyId } = await createAccount(store, { name: 'Ada', creditsUsd: '25.000000000000000000000001' });
    await addCredits(store, accountId, '0.1');
    await addCredits(store, accountId, '1000000000.2');
    const at = new Date('2025-03-12T10:00:00Z');
    await spend(store, { key: keyId, workspace: workspaceId, account: accountId }, at, '0.3');
    await spend(store, { key: keyId, workspace: workspaceId, account: accountId }, new Date(at.getTime() - 40 * DAY_MS), '0.7');
    const other = await createAccount(store, { name: 'Bob', creditsUsd: '9' });
    await spend(store, { key: other.keyId, workspace: other.workspaceId, account: other.accountId }, at, '5');

    const overview = await readAccountOverview(store, accountId, at);
    expect(overview).toMatchObject({
      id: accountId,
      name: 'Ada',
      suspended: false,
      totalCredits: parseUsd('1000000025.300000000000000000000001'),
      totalUsage: parseUsd('1'),
      usage: { total: parseUsd('1'), daily: parseUsd('0.3'), weekly: parseUsd('0.3'), monthly: parseUsd('0.3') },
    });
  });

  it('reports balance, reserved and spendable (never below zero), the suspension and the account limit', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada', creditsUsd: '10' });
    await setMoney(store, accountId, parseUsd('10'), parseUsd('2.5'));
    await setSpendLimit(store, { scope: 'account', accountId }, { limit: parseUsd('50'), reset: 'monthly' }, CLI_CHANGE);
    expect(await readAccountOverview(store, accountId)).toMatchObject({
      balance: parseUsd('10'), reserved: parseUsd('2.5'), spendable: parseUsd('7.5'), limit: { limit: parseUsd('50'), reset: 'monthly' },
    });
    await setMoney(store, accountId, parseUsd('1'), parseUsd('2'));
    await setAccountSuspended(store, accountId, true);
    expect(await readAccountOverview(store, accountId)).toMatchObject({ spendable: 0n, suspended: true });
  });

  it('adds what the reading process holds in memory to the reserve, and takes it from the spendable balance', async () => {
    const store = await open();
    const { accountId } = await createAccount(store, { name: 'Ada', creditsUsd: '10' });
    await setMoney(store, accountId, parseUsd('10'), parseUsd('2.5'));
    expect(await readAccountOverview(store, accountId, new Date(), parseUsd('0.000000000000000000000001'))).toMatchObject({
      reserved: parseUsd('2.500000000000000000000001'), spendable: parseUsd('7.499999999999999999999999'),
    });
  });

  it('lists the workspaces oldest first, each with its limit, routing defaults and usage', async () => {
    const store = await open();
    const at = new Date('2025-03-12T10:00:00Z');
    const { accountId, workspaceId, keyId } = await createAccount(store, { name: 'Ada' });
    await new Promise((resolve) => setTimeout(resolve, 2));
    const research = await createWorkspace(store, { accountId, name: 'Research' }, CLI_CHANGE);
    await setSpendLimit(store, { scope: 'workspace', workspaceId: research }, { limit: parseUsd('3'), reset: null }, CLI_CHANGE);
    await setWorkspaceRoutingDefaults(store, workspaceId, { sort: 'price' });
    await spend(store, { key: keyId, workspace: workspaceId, account: accountId }, at, '0.25');

    const overview = await readAccountOverview(store, accountId, at);
    expect(overview?.limit).toBeNull();
    expect(overview?.workspaces).toEqual([
      { id: workspaceId, name: 'Default', limit: null, routingDefaults: { sort: 'price' }, usage: { total: parseUsd('0.25'), daily: parseUsd('0.25'), weekly: parseUsd('0.25'), monthly: parseUsd('0.25') } },
      { id: research, name: 'Research', limit: { limit: parseUsd('3'), reset: null }, routingDefaults: null, usage: { total: 0n, daily: 0n, weekly: 0n, monthly: 0n } },
    ]);
  });

  it('an unknown account has no overview', async () => {
    const store = await open();
    expect(await readAccountOverview(store, 'acct_nope')).toBeNull();
  });

  it('listAccounts gives every account oldest first with its balance, state and creation time', async () => {
    const store = await open();
    const started = Date.now();
    const ada = await createAccount(store, { name: 'Ada', creditsUsd: '1.5' });
    await new Promise((resolve) => setTimeout(resolve, 2));
    const bob = await createAccount(store, { name: 'Bob' });
    await setAccountSuspended(store, bob.accountId, true);
    const accounts = await listAccounts(store);
    expect(accounts).toEqual([
      { id: ada.accountId, name: 'Ada', balance: parseUsd('1.5'), suspended: false, createdAt: expect.any(Date) },
      { id: bob.accountId, name: 'Bob', balance: 0n, suspended: true, createdAt: expect.any(Date) },
    ]);
    expect(accounts[0]?.createdAt.getTime()).toBeGreaterThanOrEqual(started);
  });
});
