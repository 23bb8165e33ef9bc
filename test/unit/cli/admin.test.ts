import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { parseUsd } from '../../../src/billing/money.js';
import { adminDatabase, type AdminDatabase } from './admin-runner.js';

let database: AdminDatabase;
const admin = (...args: string[]) => database.admin(...args);
const newAccount = () => database.newAccount();

beforeEach(() => {
  database = adminDatabase();
});

afterEach(() => {
  vi.restoreAllMocks();
  database.remove();
});

function authenticate(key: string) {
  return database.read((store) => createKeyDirectory(store).authenticate(key));
}

async function balanceOf(accountId: string): Promise<bigint> {
  return database.read(async (store) => {
    const row = await store.db.selectFrom('accounts').select('balance_units').where('id', '=', accountId).executeTakeFirstOrThrow();
    return BigInt(row.balance_units);
  });
}

describe('admin account create', () => {
  it('--json prints account_id, workspace_id, a working key and its key_id, and funds the account', async () => {
    const created = await newAccount();
    expect(Object.keys(created)).toEqual(['account_id', 'workspace_id', 'key', 'key_id']);
    expect((await authenticate(created.key))?.keyId).toBe(created.key_id);
    expect(created.key).toMatch(/^sk-svc-v1-[0-9a-f]{64}$/);
    expect((await authenticate(created.key))?.workspaceId).toBe(created.workspace_id);
    expect(await balanceOf(created.account_id)).toBe(parseUsd('25'));
  });

  it('without --json prints the ids and the key once', async () => {
    const outcome = await admin('account', 'create', '--name', 'Ada');
    expect(outcome.stdout).toMatch(/account\s+acct_[0-9a-f]+/);
    expect(outcome.stdout).toMatch(/key\s+sk-svc-v1-[0-9a-f]{64}/);
  });

  it('a malformed --credits exits 1 naming the flag', async () => {
    const outcome = await admin('account', 'create', '--name', 'Ada', '--credits', '1e3');
    expect(outcome.exitCode).toBe(1);
    expect(outcome.stderr).toContain('--credits must be a decimal USD amount');
  });
});

describe('admin credits add', () => {
  it('adds the exact amount to the balance', async () => {
    const created = await newAccount();
    const outcome = await admin('credits', 'add', '--account', created.account_id, '--usd', '0.000000000000000000000001');
    expect(outcome.stdout).toContain('25.000000000000000000000001 USD');
    expect(await balanceOf(created.account_id)).toBe(parseUsd('25.000000000000000000000001'));
  });

  it('zero, negative or non-decimal amounts and unknown accounts exit 1', async () => {
    const created = await newAccount();
    for (const usd of ['0', '-5', 'ten', '1.0000000000000000000000001']) {
      const outcome = await admin('credits', 'add', '--account', created.account_id, '--usd', usd);
      expect(outcome.exitCode, usd).toBe(1);
      expect(outcome.stderr, usd).toMatch(/^error: --usd/);
    }
    const unknown = await admin('credits', 'add', '--account', 'acct_nope', '--usd', '1');
    expect(unknown).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('acct_nope does not exist') });
  });
});

describe('admin key create and revoke', () => {
  it('creates a key with limit, reset, expiry and management flag, printed as {"key","id"}', async () => {
    const created = await newAccount();
    const outcome = await admin('key', 'create', '--account', created.account_id, '--workspace', created.workspace_id,
      '--name', 'ci', '--management', '--limit', '5', '--limit-reset', 'weekly', '--expires', '2099-01-01T00:00:00Z', '--json');
    const issued = JSON.parse(outcome.stdout) as { key: string; id: string };
    expect(Object.keys(issued)).toEqual(['key', 'id']);
    expect(await authenticate(issued.key)).toMatchObject({
      keyId: issued.id, name: 'ci', management: true, scopeLimits: { key: { limit: parseUsd('5'), reset: 'weekly' } }, expiresAt: new Date('2099-01-01T00:00:00Z'),
    });
  });

  it('invalid --limit-reset, --expires or a reset without a limit exit 1 with a clear message', async () => {
    const created = await newAccount();
    const cases: [string[], RegExp][] = [
      [['--limit', '5', '--limit-reset', 'hourly'], /daily, weekly, monthly/],
      [['--expires', 'next tuesday'], /--expires must be an ISO 8601 date/],
      [['--expires', '2001-01-01T00:00:00Z'], /--expires must be in the future/],
      [['--limit-reset', 'daily'], /--limit-reset needs --limit/],
      [['--limit', 'lots'], /--limit must be a decimal USD amount/],
    ];
    for (const [flags, message] of cases) {
      const outcome = await admin('key', 'create', '--account', created.account_id, ...flags);
      expect(outcome.exitCode, flags.join(' ')).toBe(1);
      expect(outcome.stderr, flags.join(' ')).toMatch(message);
    }
  });

  it('revoke stops the key at once; revoking an unknown key exits 1', async () => {
    const created = await newAccount();
    const issued = JSON.parse((await admin('key', 'create', '--account', created.account_id, '--json')).stdout) as { key: string; id: string };
    const outcome = await admin('key', 'revoke', '--key-id', issued.id);
    expect(outcome.stdout).toContain(`revoked ${issued.id}`);
    expect(await authenticate(issued.key)).toBeNull();
    expect(await authenticate(created.key)).not.toBeNull();
    expect((await admin('key', 'revoke', '--key-id', 'key_nope')).exitCode).toBe(1);
  });

  it('a missing required flag exits 1', async () => {
    expect((await admin('key', 'revoke')).exitCode).toBe(1);
  });
});
