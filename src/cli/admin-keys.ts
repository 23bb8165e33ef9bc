import { Option, type Command } from 'commander';
import { createKey, revokeKey } from '../accounts/accounts.js';
import { DEFAULT_KEY_PAGE, listKeys, type ManagedKey } from '../accounts/key-management.js';
import type { LimitReset } from '../accounts/types.js';
import { LIMIT_RESETS } from '../accounts/usage-window.js';
import { formatUsd } from '../billing/money.js';
import type { Store } from '../store/store.js';
import { limitJson, limitText, table } from './account-report.js';
import { namingFlags, run, SHOWN_ONCE, text, usdOption, withDatabase, type Options } from './admin-command.js';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/** What a key can do now. */
export type KeyState = 'active' | 'disabled' | 'revoked' | 'expired';

/** `admin key create|revoke|list`. */
export function registerKeyCommands(admin: Command): void {
  const key = admin.command('key').description('API keys');
  registerKeyCreate(key);
  registerKeyRevoke(key);
  registerKeyList(key);
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
      const issued = await namingFlags({ limit: '--limit', workspace: '--workspace', name: '--name' }, () => createKey(store, keyRequest(options)));
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
      if (!(await revokeKey(store, { id: keyId }))) throw new Error(`--key-id: no live key ${keyId}`);
      return `revoked ${keyId}`;
    }));
}

function registerKeyList(key: Command): void {
  withDatabase(key.command('list'))
    .description('list every key of an account, revoked ones too, newest first: id, name, label, workspace, state, management, limit')
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print [{"key_id","hash","name","label","workspace_id","state","management","limit",…}], amounts as USD decimal strings')
    .action(run(async (store, options) => {
      const accountId = text(options, 'account');
      const account = await store.db.selectFrom('accounts').select('id').where('id', '=', accountId).executeTakeFirst();
      if (!account) throw new Error(`--account: no account ${accountId}`);
      const at = new Date();
      const keys = await everyKey(store, accountId, at);
      return options['json'] ? keyListJson(keys, at) : keyListText(keys, at);
    }));
}

/** The state a key is in at `at`: revoked before expired before disabled. */
export function keyState(key: ManagedKey, at: Date): KeyState {
  if (key.revoked) return 'revoked';
  if (key.expiresAt !== null && key.expiresAt.getTime() <= at.getTime()) return 'expired';
  if (key.disabled) return 'disabled';
  return 'active';
}

async function everyKey(store: Store, accountId: string, at: Date): Promise<ManagedKey[]> {
  const keys: ManagedKey[] = [];
  for (;;) {
    const page = await listKeys(store, accountId, { offset: keys.length, limit: DEFAULT_KEY_PAGE, includeDisabled: true, includeManagement: true, includeRevoked: true }, at);
    keys.push(...page);
    if (page.length < DEFAULT_KEY_PAGE) return keys;
  }
}

function keyListJson(keys: ManagedKey[], at: Date): string {
  return JSON.stringify(keys.map((key) => ({
    key_id: key.id,
    hash: key.hash,
    name: key.name,
    label: key.label,
    workspace_id: key.workspaceId,
    state: keyState(key, at),
    management: key.management,
    limit: limitJson(key.limit, key.usage),
    usage: formatUsd(key.usage.total),
    created_at: key.createdAt.toISOString(),
    expires_at: key.expiresAt === null ? null : key.expiresAt.toISOString(),
    origin: key.origin,
  })));
}

function keyListText(keys: ManagedKey[], at: Date): string {
  if (keys.length === 0) return 'no keys';
  return table([
    ['KEY', 'NAME', 'LABEL', 'WORKSPACE', 'STATE', 'KIND', 'LIMIT'],
    ...keys.map((key) => [
      key.id, key.name, key.label, key.workspaceId, keyState(key, at), key.management ? 'management' : 'inference', limitText(key.limit, key.usage),
    ]),
  ]);
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

function parseExpiry(value: string): Date {
  const at = new Date(value);
  if (!ISO_8601.test(value) || Number.isNaN(at.getTime())) {
    throw new Error(`--expires must be an ISO 8601 date such as 2026-01-31T00:00:00Z, got ${JSON.stringify(value)}`);
  }
  if (at.getTime() <= Date.now()) throw new Error(`--expires must be in the future, got ${value}`);
  return at;
}
