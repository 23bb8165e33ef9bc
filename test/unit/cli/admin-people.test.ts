import { spawn } from 'node:child_process';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { checkPassword } from '../../../src/accounts/users.js';
import { adminDatabase, type AdminDatabase, type Outcome } from './admin-runner.js';

const REGISTER_TYPESCRIPT = new URL('../../support/typescript-child/register.mjs', import.meta.url).pathname;
const CLI_PROCESS = new URL('../../support/cli-process.ts', import.meta.url).pathname;

const PASSWORD = 'plum-orchard-1847';

let database: AdminDatabase;

beforeEach(() => {
  database = adminDatabase();
});

afterEach(() => database.remove());

/** The real `switchyard` process with `input` on its standard input. */
function switchyardWithInput(args: string[], input: string): Promise<Outcome> {
  const child = spawn(process.execPath, ['--import', REGISTER_TYPESCRIPT, CLI_PROCESS, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => { stdout += chunk.toString(); });
  child.stderr.on('data', (chunk: Buffer) => { stderr += chunk.toString(); });
  child.stdin.end(input);
  return new Promise((resolve) => child.once('close', (code) => resolve({ stdout, stderr, exitCode: code ?? -1 })));
}

describe('admin user create', () => {
  it('prints {"user_id"}; the person signs in with the password; the first person is an owner, the next a member', async () => {
    const { account_id: accountId } = await database.newAccount();
    const first = await database.admin('user', 'create', '--account', accountId, '--email', 'Ada@Example.com', '--password', PASSWORD, '--json');
    const second = await database.admin('user', 'create', '--account', accountId, '--email', 'bob@example.com', '--password', PASSWORD);
    const third = await database.admin('user', 'create', '--account', accountId, '--email', 'cy@example.com', '--password', PASSWORD, '--role', 'owner', '--json');
    const { user_id: userId, ...rest } = JSON.parse(first.stdout) as { user_id: string };
    expect(rest).toEqual({});
    expect(userId).toMatch(/^user_[0-9a-f]+$/);
    expect(second.stdout).toMatch(/^user user_[0-9a-f]+ \(member\) in acct_/);
    const people = await database.read(async (store) => ({
      ada: await checkPassword(store, 'ada@example.com', PASSWORD),
      bob: await checkPassword(store, 'bob@example.com', PASSWORD),
      cy: await checkPassword(store, 'cy@example.com', PASSWORD),
      wrong: await checkPassword(store, 'ada@example.com', `${PASSWORD}x`),
    }));
    expect(people.ada).toMatchObject({ id: userId, accountId, email: 'ada@example.com', role: 'owner' });
    expect(people.bob).toMatchObject({ role: 'member' });
    expect(people.cy).toMatchObject({ id: (JSON.parse(third.stdout) as { user_id: string }).user_id, role: 'owner' });
    expect(people.wrong).toBeNull();
    for (const outcome of [first, second, third]) expect(outcome.stdout + outcome.stderr).not.toContain(PASSWORD);
  });

  it('a weak password, a taken email, a bad email, an unknown account, both or neither password flags exit 1 naming the option, never showing the password', async () => {
    const { account_id: accountId } = await database.newAccount();
    await database.admin('user', 'create', '--account', accountId, '--email', 'ada@example.com', '--password', PASSWORD);
    const cases: [string[], string][] = [
      [['--account', accountId, '--email', 'new@example.com', '--password', 'short12'], 'error: --password: must be at least 8 characters'],
      [['--account', accountId, '--email', 'ADA@example.com', '--password', PASSWORD], 'error: --email: ada@example.com already has a user'],
      [['--account', accountId, '--email', 'not-an-email', '--password', PASSWORD], 'error: --email: not an email address'],
      [['--account', 'acct_nope', '--email', 'new@example.com', '--password', PASSWORD], 'error: --account: no account acct_nope'],
      [['--account', accountId, '--email', 'new@example.com', '--password', PASSWORD, '--password-stdin'], 'error: give exactly one of --password and --password-stdin'],
      [['--account', accountId, '--email', 'new@example.com'], 'error: give exactly one of --password and --password-stdin'],
      [['--account', accountId, '--email', 'new@example.com', '--password', PASSWORD, '--role', 'admin'], 'Allowed choices are owner, member'],
    ];
    for (const [flags, message] of cases) {
      const outcome = await database.admin('user', 'create', ...flags);
      expect(outcome.exitCode, flags.join(' ')).toBe(1);
      expect(outcome.stderr, flags.join(' ')).toContain(message);
      expect(outcome.stdout + outcome.stderr, flags.join(' ')).not.toContain(PASSWORD);
      expect(outcome.stdout + outcome.stderr, flags.join(' ')).not.toContain('short12');
    }
    const users = await database.read((store) => store.db.selectFrom('users').select('email').execute());
    expect(users).toEqual([{ email: 'ada@example.com' }]);
  });

  it('--password-stdin reads one line from standard input (newline dropped) in the real process; two lines exit 1', async () => {
    const { account_id: accountId } = await database.newAccount();
    const args = ['admin', 'user', 'create', '--account', accountId, '--password-stdin', '--database', database.url];
    const [created, twoLines] = await Promise.all([
      switchyardWithInput([...args, '--email', 'ada@example.com', '--json'], `${PASSWORD}\n`),
      switchyardWithInput([...args, '--email', 'bob@example.com'], `${PASSWORD}\nsecond line\n`),
    ]);
    expect(created.exitCode, created.stderr).toBe(0);
    expect(Object.keys(JSON.parse(created.stdout) as object)).toEqual(['user_id']);
    expect(await database.read((store) => checkPassword(store, 'ada@example.com', PASSWORD))).toMatchObject({ role: 'owner' });
    expect(twoLines).toMatchObject({ exitCode: 1, stdout: '', stderr: 'error: --password-stdin: standard input must hold the password on one line\n' });
    for (const outcome of [created, twoLines]) expect(outcome.stdout + outcome.stderr).not.toContain(PASSWORD);
  });
});
