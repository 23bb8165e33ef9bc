import type { Command } from 'commander';
import { listAccounts, readAccountOverview } from '../accounts/account-overview.js';
import { addCredits, createAccount } from '../accounts/accounts.js';
import { formatUsd } from '../billing/money.js';
import { accountListJson, accountListText, accountShowJson, accountShowText } from './account-report.js';
import { run, SHOWN_ONCE, text, usdOption, withDatabase } from './admin-command.js';

/** `admin account create|list|show` and `admin credits add`. */
export function registerAccountCommands(admin: Command): void {
  const account = admin.command('account').description('accounts');
  registerAccountCreate(account);
  registerAccountList(account);
  registerAccountShow(account);
  registerCreditsAdd(admin.command('credits').description('credit deposits'));
}

function registerAccountCreate(account: Command): void {
  withDatabase(account.command('create'))
    .description('create an account, its default workspace and one inference key')
    .requiredOption('--name <name>', 'account name')
    .option('--credits <usd>', 'initial credits in USD, e.g. 25 or 2.50')
    .option('--json', 'print {"account_id","workspace_id","key","key_id"}')
    .action(run(async (store, options) => {
      const creditsUsd = usdOption(options, 'credits', true);
      const created = await createAccount(store, { name: text(options, 'name'), ...(creditsUsd && { creditsUsd }) });
      if (options['json']) {
        return JSON.stringify({ account_id: created.accountId, workspace_id: created.workspaceId, key: created.key, key_id: created.keyId });
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

function registerAccountList(account: Command): void {
  withDatabase(account.command('list'))
    .description('list every account: id, name, balance and whether it is suspended (oldest first)')
    .option('--json', 'print [{"account_id","name","balance","suspended","created_at"}], amounts as USD decimal strings')
    .action(run(async (store, options) => {
      const accounts = await listAccounts(store);
      return options['json'] ? accountListJson(accounts) : accountListText(accounts);
    }));
}

function registerAccountShow(account: Command): void {
  withDatabase(account.command('show'))
    .description('show an account: balance, reserved, spendable, total credits and usage, its limit and its workspaces')
    .requiredOption('--account <id>', 'account id')
    .option('--json', 'print the account as JSON, amounts as USD decimal strings')
    .action(run(async (store, options) => {
      const accountId = text(options, 'account');
      const overview = await readAccountOverview(store, accountId);
      if (!overview) throw new Error(`--account: no account ${accountId}`);
      return options['json'] ? accountShowJson(overview) : accountShowText(overview);
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
