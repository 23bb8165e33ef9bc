import { Option, type Command } from 'commander';
import { addCredits, createAccount, createKey, revokeKey } from '../accounts/accounts.js';
import { setWorkspaceRoutingDefaults } from '../accounts/workspace-routing.js';
import { LIMIT_RESETS } from '../accounts/usage-window.js';
import type { LimitReset } from '../accounts/types.js';
import { formatUsd, isDecimalString } from '../billing/money.js';
import { DEFAULT_DATABASE_URL } from '../store/database-url.js';
import { openStore, type Store } from '../store/store.js';

const SHOWN_ONCE = 'The key is shown only once: store it now.';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** `switchyard admin …`: accounts, credits and keys, straight against the database. */
export function registerAdminCommands(program: Command): void {
  const admin = program.command('admin').description('operator commands against the database');
  registerAccountCreate(admin.command('account').description('accounts'));
  registerCreditsAdd(admin.command('credits').description('credit deposits'));
  const key = admin.command('key').description('API keys');
  registerKeyCreate(key);
  registerKeyRevoke(key);
  registerWorkspaceRouting(admin.command('workspace').description('workspaces'));
}

function registerAccountCreate(account: Command): void {
  withDatabase(account.command('create'))
    .description('create an account, its default workspace and one inference key')
    .requiredOption('--name <name>', 'account name')
    .option('--credits <usd>', 'initial credits in USD, e.g. 25 or 2.50')
    .option('--json', 'print {"account_id","workspace_id","key"}')
    .action(run(async (store, options) => {
      const creditsUsd = usdOption(options, 'credits', true);
      const created = await createAccount(store, { name: text(options, 'name'), ...(creditsUsd && { creditsUsd }) });
      if (options['json']) {
        return JSON.stringify({ account_id: created.accountId, workspace_id: created.workspaceId, key: created.key });
      }
      return [
        `account    ${created.accountId}`,
        `workspace  ${created.workspaceId}`,
        `key id     ${created.keyId}`,
        `key        ${created.key}`,
        SHOWN_ONCE,
      ].join('\n');
    }));
}

function registerCreditsAdd(credits: Command): void {
  withDatabase(credits.command('add'))
    .description('add credits to an account')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--usd <amount>', 'amount in USD, e.g. 10 or 0.50')
    .action(run(async (store, options) => {
      const accountId = text(options, 'account');
      const balance = await addCredits(store, accountId, usdOption(options, 'usd', false) ?? '');
      return `balance of ${accountId}: ${formatUsd(balance)} USD`;
    }));
}

function registerKeyCreate(key: Command): void {
  withDatabase(key.command('create'))
    .description('issue a key in an account')
    .requiredOption('--account <id>', 'account id')
    .option('--workspace <id>', 'workspace id (default: the default workspace)')
    .option('--name <name>', 'key name')
    .option('--management', 'a management key: manages keys, cannot spend')
    .option('--limit <usd>', 'spend limit in USD')
    .addOption(new Option('--limit-reset <window>', 'spend limit window (UTC)').choices(LIMIT_RESETS))
    .option('--expires <iso8601>', 'expiry date, e.g. 2026-01-31T00:00:00Z')
    .option('--json', 'print {"key","id"}')
    .action(run(async (store, options) => {
      const issued = await createKey(store, keyRequest(options));
      if (options['json']) return JSON.stringify({ key: issued.key, id: issued.id });
      return [`key id  ${issued.id}`, `key     ${issued.key}`, SHOWN_ONCE].join('\n');
    }));
}

function registerKeyRevoke(key: Command): void {
  withDatabase(key.command('revoke'))
    .description('revoke a key at once')
    .requiredOption('--key-id <id>', 'key id')
    .action(run(async (store, options) => {
      const keyId = text(options, 'keyId');
      if (!(await revokeKey(store, { id: keyId }))) throw new Error(`no live key with id ${keyId}`);
      return `revoked ${keyId}`;
    }));
}

function registerWorkspaceRouting(workspace: Command): void {
  withDatabase(workspace.command('routing'))
    .description('set the routing defaults of a workspace (a provider-preferences object; null clears them)')
    .requiredOption('--workspace <id>', 'workspace id')
    .requiredOption('--provider <json>', 'e.g. {"zdr":true,"sort":"price"} or null')
    .action(run(async (store, options) => {
      const workspaceId = text(options, 'workspace');
      let provider: unknown;
      try {
        provider = JSON.parse(text(options, 'provider'));
      } catch {
        throw new Error('--provider must be JSON');
      }
      await setWorkspaceRoutingDefaults(store, workspaceId, provider);
      return `routing defaults of ${workspaceId}: ${JSON.stringify(provider)}`;
    }));
}

type Options = Record<string, unknown>;

function withDatabase(command: Command): Command {
  return command.addOption(
    new Option('--database <url>', 'sqlite:PATH or postgres://…')
      .env('SWITCHYARD_DATABASE_URL')
      .default(DEFAULT_DATABASE_URL),
  );
}

/**
 * Opens the database (migrating it), runs the work and always closes it, then prints the output.
 * Any failure — a refused input, an unknown id, an unreachable database — is printed as
 * `error: …` with exit code 1, never as a stack trace.
 */
function run(work: (store: Store, options: Options) => Promise<string>) {
  return async (options: Options, command: Command): Promise<void> => {
    let output: string;
    try {
      const store = await openStore(text(options, 'database'));
      try {
        output = await work(store, options);
      } finally {
        await store.close();
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      command.error(`error: ${message}`, { exitCode: 1, code: 'switchyard.admin' });
    }
    process.stdout.write(`${output}\n`);
  };
}

function keyRequest(options: Options): Parameters<typeof createKey>[1] {
  const limitUsd = usdOption(options, 'limit', true);
  const limitReset = options['limitReset'] as LimitReset | undefined;
  if (limitReset !== undefined && limitUsd === undefined) {
    throw new Error('--limit-reset needs --limit');
  }
  const expires = options['expires'];
  return {
    accountId: text(options, 'account'),
    ...(typeof options['workspace'] === 'string' && { workspaceId: options['workspace'] }),
    ...(typeof options['name'] === 'string' && { name: options['name'] }),
    management: options['management'] === true,
    ...(limitUsd !== undefined && { limitUsd }),
    ...(limitReset !== undefined && { limitReset }),
    ...(typeof expires === 'string' && { expiresAt: parseExpiry(expires) }),
  };
}

/** A USD decimal string option, refused unless it is a plain non-negative decimal. */
function usdOption(options: Options, name: string, allowZero: boolean): string | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  const flag = `--${name}`;
  if (!isDecimalString(value) || value.startsWith('-')) {
    throw new Error(`${flag} must be a decimal USD amount such as 10 or 0.50, got ${JSON.stringify(value)}`);
  }
  if (!allowZero && /^[0.]+$/.test(value)) throw new Error(`${flag} must be more than zero`);
  const fraction = value.split('.')[1]?.replace(/0+$/, '') ?? '';
  if (fraction.length > 24) throw new Error(`${flag} has more than 24 decimal places`);
  return value;
}

function parseExpiry(value: string): Date {
  const at = new Date(value);
  if (!ISO_8601.test(value) || Number.isNaN(at.getTime())) {
    throw new Error(`--expires must be an ISO 8601 date such as 2026-01-31T00:00:00Z, got ${JSON.stringify(value)}`);
  }
  if (at.getTime() <= Date.now()) throw new Error(`--expires must be in the future, got ${value}`);
  return at;
}

function text(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string') throw new Error(`missing --${name}`);
  return value;
}
