import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKey } from '../../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../../src/accounts/audit.js';
import { updateKey } from '../../../src/accounts/key-management.js';
import { dayStart } from '../../../src/accounts/usage-window.js';
import { ledgerTables } from '../../../src/billing/ledger-engine.js';
import { parseUsd } from '../../../src/billing/money.js';
import { adminDatabase, type AdminDatabase } from './admin-runner.js';

let database: AdminDatabase;

beforeEach(() => {
  database = adminDatabase();
});

afterEach(() => database.remove());

describe('admin account list', () => {
  it('lists every account with id, name, balance and state; --json as USD decimal strings', async () => {
    const ada = await database.newAccount('Ada');
    await new Promise((resolve) => setTimeout(resolve, 2));
    const bob = await database.newAccount('Bob');
    await database.admin('credits', 'add', '--account', bob.account_id, '--usd', '0.000000000000000000000001');
    const json = JSON.parse((await database.admin('account', 'list', '--json')).stdout) as Record<string, unknown>[];
    expect(json).toEqual([
      { account_id: ada.account_id, name: 'Ada', balance: '25', suspended: false, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
      { account_id: bob.account_id, name: 'Bob', balance: '25.000000000000000000000001', suspended: false, created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) },
    ]);
    const text = (await database.admin('account', 'list')).stdout.split('\n');
    expect(text[0]).toMatch(/^ACCOUNT\s+NAME\s+BALANCE\s+STATE$/);
    expect(text[1]).toMatch(new RegExp(`^${ada.account_id}\\s+Ada\\s+25 USD\\s+active$`));
    expect(text[2]).toMatch(new RegExp(`^${bob.account_id}\\s+Bob\\s+25.000000000000000000000001 USD\\s+active$`));
  });
});

describe('admin account show', () => {
  it('shows balance, reserved, spendable, total credits and usage, the account limit with what is used in its window, and each workspace', async () => {
    const { account_id: accountId, workspace_id: workspaceId, key_id: keyId } = await database.newAccount();
    await database.admin('credits', 'add', '--account', accountId, '--usd', '5');
    await database.admin('limit', 'set', '--account', accountId, '--usd', '10', '--reset', 'daily');
    const research = JSON.parse((await database.admin('workspace', 'create', '--account', accountId, '--name', 'Research', '--json')).stdout) as { workspace_id: string };
    await database.admin('limit', 'set', '--workspace', research.workspace_id, '--usd', '3');
    await database.admin('workspace', 'routing', '--workspace', workspaceId, '--provider', '{"sort":"price"}');
    await database.read((store) => store.write(async (tx) => {
      const tables = ledgerTables(store, tx);
      await tables.moveMoney(accountId, { balance: 0n, reserved: 0n }, { amount: parseUsd('1.5'), owners: { key: keyId, workspace: workspaceId, account: accountId }, dayStart: dayStart(new Date()) });
      await tables.writeAccount(accountId, { balance: parseUsd('28.5'), reserved: parseUsd('0.25') });
    }));

    const json = JSON.parse((await database.admin('account', 'show', '--account', accountId, '--json')).stdout) as Record<string, unknown>;
    const none = { total: '0', daily: '0', weekly: '0', monthly: '0' };
    const spent = { total: '1.5', daily: '1.5', weekly: '1.5', monthly: '1.5' };
    expect(json).toEqual({
      account_id: accountId,
      name: 'Ada',
      suspended: false,
      balance: '28.5',
      reserved: '0.25',
      spendable: '28.25',
      total_credits: '30',
      total_usage: '1.5',
      limit: { limit: '10', limit_reset: 'daily', used: '1.5', remaining: '8.5' },
      usage: spent,
      workspaces: [
        { workspace_id: workspaceId, name: 'Default', limit: null, usage: spent, routing_defaults: { sort: 'price' } },
        { workspace_id: research.workspace_id, name: 'Research', limit: { limit: '3', limit_reset: null, used: '0', remaining: '3' }, usage: none, routing_defaults: null },
      ],
    });
    const text = (await database.admin('account', 'show', '--account', accountId)).stdout;
    for (const line of [
      /^balance\s+28\.5 USD$/m, /^reserved\s+0\.25 USD$/m, /^spendable\s+28\.25 USD$/m, /^total credits\s+30 USD$/m,
      /^total usage\s+1\.5 USD \(1\.5 USD today/m, /^limit\s+10 USD daily: 1\.5 USD used today, 8\.5 USD left$/m,
      new RegExp(`^\\s+${research.workspace_id}\\s+Research\\s+used 0 USD\\s+limit 3 USD lifetime: 0 USD used in all, 3 USD left$`, 'm'),
    ]) expect(text).toMatch(line);
  });

  it('an unknown account exits 1 naming --account', async () => {
    expect(await database.admin('account', 'show', '--account', 'acct_nope')).toMatchObject({ exitCode: 1, stderr: 'error: --account: no account acct_nope\n' });
  });
});

describe('admin key list', () => {
  it('lists every key, revoked ones too, with id, name, label, workspace, state, management and limit', async () => {
    const { account_id: accountId, workspace_id: workspaceId, key_id: firstId } = await database.newAccount();
    const issue = async (...flags: string[]) =>
      (JSON.parse((await database.admin('key', 'create', '--account', accountId, '--json', ...flags)).stdout) as { id: string }).id;
    const managementId = await issue('--name', 'admin', '--management', '--limit', '2', '--limit-reset', 'monthly');
    const revokedId = await issue('--name', 'gone');
    await database.admin('key', 'revoke', '--key-id', revokedId);
    const disabled = await database.read((store) => createKey(store, { accountId, name: 'paused' }));
    await database.read((store) => updateKey(store, accountId, disabled.hash, { disabled: true }, CLI_CHANGE));
    const expired = await database.read((store) => createKey(store, { accountId, name: 'old', expiresAt: new Date(Date.now() - 1000) }));

    const keys = JSON.parse((await database.admin('key', 'list', '--account', accountId, '--json')).stdout) as Record<string, unknown>[];
    const byId = new Map(keys.map((key) => [key['key_id'], key]));
    expect(keys).toHaveLength(5);
    expect(byId.get(firstId)).toEqual({
      key_id: firstId, hash: expect.stringMatching(/^[0-9a-f]{64}$/), name: 'Default', label: expect.stringMatching(/^sk-svc-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{3}$/),
      workspace_id: workspaceId, state: 'active', management: false, limit: null, usage: '0', created_at: expect.any(String), expires_at: null, origin: null,
    });
    expect(byId.get(managementId)).toMatchObject({ name: 'admin', state: 'active', management: true, limit: { limit: '2', limit_reset: 'monthly', used: '0', remaining: '2' } });
    expect(byId.get(revokedId)).toMatchObject({ name: 'gone', state: 'revoked' });
    expect(byId.get(disabled.id)).toMatchObject({ name: 'paused', state: 'disabled' });
    expect(byId.get(expired.id)).toMatchObject({ name: 'old', state: 'expired' });

    const text = (await database.admin('key', 'list', '--account', accountId)).stdout.split('\n');
    expect(text[0]).toMatch(/^KEY\s+NAME\s+LABEL\s+WORKSPACE\s+STATE\s+KIND\s+LIMIT$/);
    const row = (id: string) => text.find((line) => line.startsWith(id)) ?? '';
    expect(row(managementId)).toMatch(new RegExp(`admin\\s+sk-svc-v1-\\S+\\s+${workspaceId}\\s+active\\s+management\\s+2 USD monthly: 0 USD used this month, 2 USD left$`));
    expect(row(revokedId)).toMatch(/\srevoked\s+inference\s+none$/);
    expect(row(disabled.id)).toMatch(/\sdisabled\s/);
    expect(row(expired.id)).toMatch(/\sexpired\s/);
    expect(text.join('\n')).not.toMatch(/sk-svc-v1-[0-9a-f]{64}/);
  });

  it('an unknown account exits 1 naming --account', async () => {
    expect(await database.admin('key', 'list', '--account', 'acct_nope')).toMatchObject({ exitCode: 1, stderr: 'error: --account: no account acct_nope\n' });
  });
});
