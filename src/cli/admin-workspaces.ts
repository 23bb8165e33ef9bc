import { Option, type Command } from 'commander';
import { CLI_CHANGE } from '../accounts/audit.js';
import { setSpendLimit, type LimitOwner } from '../accounts/spend-limits.js';
import type { LimitReset, SpendLimit } from '../accounts/types.js';
import { LIMIT_RESETS } from '../accounts/usage-window.js';
import { setWorkspaceRoutingDefaults } from '../accounts/workspace-routing.js';
import { createWorkspace } from '../accounts/workspaces.js';
import { formatUsd, parseUsd } from '../billing/money.js';
import { namingFlags, run, text, usdOption, withDatabase, type Options } from './admin-command.js';

/** `admin workspace create|routing` and `admin limit set`. */
export function registerWorkspaceCommands(admin: Command): void {
  const workspace = admin.command('workspace').description('workspaces');
  registerWorkspaceCreate(workspace);
  registerWorkspaceRouting(workspace);
  registerLimitSet(admin.command('limit').description('spend limits of accounts and workspaces'));
}

function registerWorkspaceCreate(workspace: Command): void {
  withDatabase(workspace.command('create'))
    .description('add a workspace to an account (keys are issued in a workspace with key create --workspace)')
    .requiredOption('--account <id>', 'account id')
    .requiredOption('--name <name>', 'workspace name')
    .option('--json', 'print {"workspace_id"}')
    .action(run(async (store, options) => {
      const accountId = text(options, 'account');
      const workspaceId = await namingFlags({ account: '--account', name: '--name' }, () =>
        createWorkspace(store, { accountId, name: text(options, 'name') }, CLI_CHANGE));
      if (options['json']) return JSON.stringify({ workspace_id: workspaceId });
      return `workspace ${workspaceId} in ${accountId}`;
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
      await namingFlags({ workspace: '--workspace', provider: '--provider' }, () => setWorkspaceRoutingDefaults(store, workspaceId, provider));
      return `routing defaults of ${workspaceId}: ${JSON.stringify(provider)}`;
    }));
}

function registerLimitSet(limit: Command): void {
  withDatabase(limit.command('set'))
    .description('set the spend limit of an account or a workspace (exactly one of --account and --workspace)')
    .option('--account <id>', 'account id')
    .option('--workspace <id>', 'workspace id')
    .requiredOption('--usd <amount>', 'the limit in USD, e.g. 20 or 0.50; none removes the limit')
    .addOption(new Option('--reset <window>', 'the UTC window it counts over (weeks start Monday); default: all time').choices(LIMIT_RESETS))
    .action(run(async (store, options) => {
      const owner = limitOwner(options);
      const limit = limitOf(options);
      const id = owner.scope === 'account' ? owner.accountId : owner.workspaceId;
      await namingFlags({ account: '--account', workspace: '--workspace', limit: '--usd' }, () => setSpendLimit(store, owner, limit, CLI_CHANGE));
      return `limit of ${id}: ${limit ? `${formatUsd(limit.limit)} USD ${limit.reset ?? 'lifetime'}` : 'none'}`;
    }));
}

function limitOwner(options: Options): LimitOwner {
  const accountId = options['account'];
  const workspaceId = options['workspace'];
  if ((typeof accountId === 'string') === (typeof workspaceId === 'string')) throw new Error('give exactly one of --account and --workspace');
  return typeof accountId === 'string' ? { scope: 'account', accountId } : { scope: 'workspace', workspaceId: text(options, 'workspace') };
}

/** `--usd none` is no limit; anything else an exact non-negative decimal, with its window. */
function limitOf(options: Options): SpendLimit | null {
  const reset = options['reset'] as LimitReset | undefined;
  if (options['usd'] === 'none') {
    if (reset !== undefined) throw new Error('--reset needs an amount: --usd none removes the limit');
    return null;
  }
  const usd = usdOption(options, 'usd', true) ?? '';
  return { limit: parseUsd(usd), reset: reset ?? null };
}
