// How the operator's commands print accounts: amounts as USD decimals (strings in JSON).
import type { AccountOverview, AccountSummary } from '../accounts/account-overview.js';
import { usageInWindow } from '../accounts/scope-usage.js';
import type { ScopeUsage } from '../accounts/scope-usage.js';
import type { LimitReset, SpendLimit } from '../accounts/types.js';
import { formatUsd, maxUnits } from '../billing/money.js';

/** A limit with what is used of it in its current window; null without a limit. */
export function limitJson(limit: SpendLimit | null, usage: ScopeUsage): Record<string, string | null> | null {
  if (!limit) return null;
  const used = usageInWindow(limit.reset, usage);
  return { limit: formatUsd(limit.limit), limit_reset: limit.reset, used: formatUsd(used), remaining: formatUsd(maxUnits(0n, limit.limit - used)) };
}

/** `10 USD weekly: 2.5 USD used this week, 7.5 USD left`, or `none`. */
export function limitText(limit: SpendLimit | null, usage: ScopeUsage): string {
  if (!limit) return 'none';
  const used = usageInWindow(limit.reset, usage);
  return `${usd(limit.limit)} ${limit.reset ?? 'lifetime'}: ${usd(used)} used ${windowWords(limit.reset)}, ${usd(maxUnits(0n, limit.limit - used))} left`;
}

export function accountListJson(accounts: AccountSummary[]): string {
  return JSON.stringify(accounts.map((account) => ({
    account_id: account.id,
    name: account.name,
    balance: formatUsd(account.balance),
    suspended: account.suspended,
    created_at: account.createdAt.toISOString(),
  })));
}

export function accountListText(accounts: AccountSummary[]): string {
  if (accounts.length === 0) return 'no accounts';
  return table([
    ['ACCOUNT', 'NAME', 'BALANCE', 'STATE'],
    ...accounts.map((account) => [account.id, account.name, usd(account.balance), account.suspended ? 'suspended' : 'active']),
  ]);
}

export function accountShowJson(account: AccountOverview): string {
  return JSON.stringify({
    account_id: account.id,
    name: account.name,
    suspended: account.suspended,
    balance: formatUsd(account.balance),
    reserved: formatUsd(account.reserved),
    spendable: formatUsd(account.spendable),
    total_credits: formatUsd(account.totalCredits),
    total_usage: formatUsd(account.totalUsage),
    limit: limitJson(account.limit, account.usage),
    usage: usageJson(account.usage),
    workspaces: account.workspaces.map((workspace) => ({
      workspace_id: workspace.id,
      name: workspace.name,
      limit: limitJson(workspace.limit, workspace.usage),
      usage: usageJson(workspace.usage),
      routing_defaults: workspace.routingDefaults,
    })),
  });
}

export function accountShowText(account: AccountOverview): string {
  const { usage } = account;
  return [
    `account        ${account.id}  ${account.name}${account.suspended ? '  (suspended)' : ''}`,
    `balance        ${usd(account.balance)}`,
    `reserved       ${usd(account.reserved)}`,
    `spendable      ${usd(account.spendable)}`,
    `total credits  ${usd(account.totalCredits)}`,
    `total usage    ${usd(account.totalUsage)} (${usd(usage.daily)} today, ${usd(usage.weekly)} this week, ${usd(usage.monthly)} this month)`,
    `limit          ${limitText(account.limit, usage)}`,
    'workspaces',
    table(account.workspaces.map((workspace) => [
      `  ${workspace.id}`,
      workspace.name,
      `used ${usd(workspace.usage.total)}`,
      `limit ${limitText(workspace.limit, workspace.usage)}`,
    ])),
  ].join('\n');
}

/** Amounts in USD as a reader sees them: `2.5 USD`. */
export function usd(units: bigint): string {
  return `${formatUsd(units)} USD`;
}

/** Rows of cells padded into columns (the last column unpadded). */
export function table(rows: string[][]): string {
  const widths: number[] = [];
  for (const row of rows) row.forEach((cell, index) => { widths[index] = Math.max(widths[index] ?? 0, cell.length); });
  return rows
    .map((row) => row.map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0))).join('  '))
    .join('\n');
}

function usageJson(usage: ScopeUsage): Record<string, string> {
  return { total: formatUsd(usage.total), daily: formatUsd(usage.daily), weekly: formatUsd(usage.weekly), monthly: formatUsd(usage.monthly) };
}

function windowWords(reset: LimitReset | null): string {
  switch (reset) {
    case 'daily':
      return 'today';
    case 'weekly':
      return 'this week';
    case 'monthly':
      return 'this month';
    case null:
      return 'in all';
    default: {
      const unreachable: never = reset;
      throw new Error(`unknown limit reset ${String(unreachable)}`);
    }
  }
}
