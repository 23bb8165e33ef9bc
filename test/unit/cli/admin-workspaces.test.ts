import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { parseUsd } from '../../../src/billing/money.js';
import { adminDatabase, type AdminDatabase } from './admin-runner.js';

let database: AdminDatabase;

beforeEach(() => {
  database = adminDatabase();
});

afterEach(() => database.remove());

function authenticate(key: string) {
  return database.read((store) => createKeyDirectory(store).authenticate(key));
}

describe('admin workspace create', () => {
  it('prints {"workspace_id"} of a new workspace of the account, where key create --workspace issues keys', async () => {
    const { account_id: accountId, workspace_id: defaultId } = await database.newAccount();
    const outcome = await database.admin('workspace', 'create', '--account', accountId, '--name', ' Research ', '--json');
    const { workspace_id: workspaceId, ...rest } = JSON.parse(outcome.stdout) as { workspace_id: string };
    expect(rest).toEqual({});
    expect(workspaceId).toMatch(/^ws_[0-9a-f]+$/);
    expect(workspaceId).not.toBe(defaultId);
    const row = await database.read((store) => store.db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst());
    expect(row).toMatchObject({ account_id: accountId, name: 'Research', limit_units: null, routing_defaults: null });
    const issued = JSON.parse((await database.admin('key', 'create', '--account', accountId, '--workspace', workspaceId, '--json')).stdout) as { key: string };
    expect((await authenticate(issued.key))?.workspaceId).toBe(workspaceId);
    expect((await database.admin('workspace', 'create', '--account', accountId, '--name', 'Ops')).stdout).toMatch(/^workspace ws_[0-9a-f]+ in acct_/);
  });

  it('an empty name or an unknown account exits 1 naming the option', async () => {
    const { account_id: accountId } = await database.newAccount();
    expect(await database.admin('workspace', 'create', '--account', accountId, '--name', '  ')).toMatchObject({ exitCode: 1, stderr: 'error: --name: must not be empty\n' });
    expect(await database.admin('workspace', 'create', '--account', 'acct_nope', '--name', 'Ops')).toMatchObject({ exitCode: 1, stderr: 'error: --account: no account acct_nope\n' });
  });
});

describe('admin limit set', () => {
  it('sets an account or a workspace limit with its window, which the keys under it are held against; --usd none removes it', async () => {
    const { account_id: accountId, workspace_id: workspaceId, key } = await database.newAccount();
    const account = await database.admin('limit', 'set', '--account', accountId, '--usd', '20.000000000000000000000001', '--reset', 'weekly');
    const workspace = await database.admin('limit', 'set', '--workspace', workspaceId, '--usd', '0');
    expect(account.stdout).toBe(`limit of ${accountId}: 20.000000000000000000000001 USD weekly\n`);
    expect(workspace.stdout).toBe(`limit of ${workspaceId}: 0 USD lifetime\n`);
    expect((await authenticate(key))?.scopeLimits).toEqual({
      account: { limit: parseUsd('20.000000000000000000000001'), reset: 'weekly' },
      workspace: { limit: 0n, reset: null },
    });
    expect((await database.admin('limit', 'set', '--account', accountId, '--usd', 'none')).stdout).toBe(`limit of ${accountId}: none\n`);
    expect((await authenticate(key))?.scopeLimits).toEqual({ workspace: { limit: 0n, reset: null } });
  });

  it('both or neither of --account and --workspace, a bad amount, an unknown id or --reset with none exit 1 naming the option', async () => {
    const { account_id: accountId, workspace_id: workspaceId } = await database.newAccount();
    const cases: [string[], string][] = [
      [['--account', accountId, '--workspace', workspaceId, '--usd', '5'], 'error: give exactly one of --account and --workspace'],
      [['--usd', '5'], 'error: give exactly one of --account and --workspace'],
      [['--account', accountId, '--usd', '-5'], 'error: --usd must be a decimal USD amount'],
      [['--account', accountId, '--usd', '5e2'], 'error: --usd must be a decimal USD amount'],
      [['--account', accountId, '--usd', '0.0000000000000000000000001'], 'error: --usd has more than 24 decimal places'],
      [['--account', accountId, '--usd', '1000000000.000000000000000000000001'], 'error: --usd: must be at most 1000000000 USD'],
      [['--account', accountId, '--usd', '5', '--reset', 'hourly'], 'Allowed choices are daily, weekly, monthly'],
      [['--account', accountId, '--usd', 'none', '--reset', 'daily'], 'error: --reset needs an amount'],
      [['--workspace', 'ws_nope', '--usd', '5'], 'error: --workspace: no workspace ws_nope'],
      [['--account', 'acct_nope', '--usd', '5'], 'error: --account: no account acct_nope'],
    ];
    for (const [flags, message] of cases) {
      const outcome = await database.admin('limit', 'set', ...flags);
      expect(outcome.exitCode, flags.join(' ')).toBe(1);
      expect(outcome.stderr, flags.join(' ')).toContain(message);
    }
    const limits = await database.read((store) => store.db.selectFrom('workspaces').select('limit_units').execute());
    expect(limits).toEqual([{ limit_units: null }]);
  });
});
