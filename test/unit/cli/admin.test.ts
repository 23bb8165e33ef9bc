import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { parseUsd } from '../../../src/billing/money.js';
import { registerAdminCommands } from '../../../src/cli/admin.js';
import { openStore } from '../../../src/store/store.js';

let dir: string;
let database: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'switchyard-admin-'));
  database = `sqlite:${join(dir, 'data', 'switchyard.db')}`;
});

afterEach(() => {
  vi.restoreAllMocks();
  rmSync(dir, { recursive: true, force: true });
});

interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

async function admin(...args: string[]): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const program = new Command().exitOverride().configureOutput({
    writeOut: (text) => { stdout += text; },
    writeErr: (text) => { stderr += text; },
  });
  registerAdminCommands(program);
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['admin', ...args, '--database', database], { from: 'user' });
    return { stdout, stderr, exitCode: 0 };
  } catch (error) {
    if (error instanceof CommanderError) return { stdout, stderr, exitCode: error.exitCode };
    throw error;
  } finally {
    write.mockRestore();
  }
}

async function authenticate(key: string) {
  const store = await openStore(database);
  try {
    return await createKeyDirectory(store).authenticate(key);
  } finally {
    await store.close();
  }
}

async function balanceOf(accountId: string): Promise<bigint> {
  const store = await openStore(database);
  try {
    const row = await store.db.selectFrom('accounts').select('balance_units').where('id', '=', accountId).executeTakeFirstOrThrow();
    return BigInt(row.balance_units);
  } finally {
    await store.close();
  }
}

async function newAccount(): Promise<{ account_id: string; workspace_id: string; key: string }> {
  const created = await admin('account', 'create', '--name', 'Ada', '--credits', '25', '--json');
  return JSON.parse(created.stdout) as { account_id: string; workspace_id: string; key: string };
}

describe('admin account create', () => {
  it('--json prints account_id, workspace_id and a working key, and funds the account', async () => {
    const created = await newAccount();
    expect(Object.keys(created)).toEqual(['account_id', 'workspace_id', 'key']);
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
      keyId: issued.id, name: 'ci', management: true, limit: parseUsd('5'), limitReset: 'weekly', expiresAt: new Date('2099-01-01T00:00:00Z'),
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
