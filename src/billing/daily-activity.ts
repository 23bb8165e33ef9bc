import type { Units } from './money.js';
import type { Db } from '../store/store.js';
import { dayStart } from '../accounts/usage-window.js';

const DAY_MS = 86_400_000;

/** How many UTC days of activity are kept readable: today and the 29 before it. */
export const ACTIVITY_DAYS = 30;

/** One UTC day of one model on one endpoint (and, when grouped so, one workspace). */
export interface ActivityRow {
  /** `YYYY-MM-DD`, UTC. */
  date: string;
  model: string;
  endpointId: string;
  providerName: string;
  /** Present when the rows are grouped by workspace. */
  workspaceId?: string;
  /** Everything charged, exact. */
  usage: Units;
  requests: number;
  promptTokens: number;
  completionTokens: number;
  reasoningTokens: number;
}

export interface ActivityQuery {
  /** First instant included (epoch ms); the start of a UTC day. */
  from: number;
  /** First instant excluded (epoch ms). */
  to: number;
  /** Only this key's generations. */
  keyId?: string;
  /** Only this workspace's generations. */
  workspaceId?: string;
  /** One row per workspace too. */
  byWorkspace?: boolean;
}

/** The UTC days `GET /activity` covers at `at`: from the start of the day 29 days ago to the end of today. */
export function activityWindow(at: Date): { from: number; to: number } {
  const today = dayStart(at);
  return { from: today - (ACTIVITY_DAYS - 1) * DAY_MS, to: today + DAY_MS };
}

/**
 * The account's settled generations summed per UTC day, model and endpoint, newest day first.
 * Generations still pending are left out (their cost is not known yet), and so are requests refused
 * before any endpoint was chosen (they reached no endpoint and cost nothing). Money is summed
 * exactly; an unreported token count adds 0.
 */
export async function readDailyActivity(db: Db, accountId: string, query: ActivityQuery): Promise<ActivityRow[]> {
  const rows = await db
    .selectFrom('generations')
    .select(['created_at', 'model', 'endpoint_id', 'provider_name', 'provider_slug', 'workspace_id', 'cost_units', 'prompt_tokens', 'completion_tokens', 'reasoning_tokens'])
    .where('account_id', '=', accountId)
    .where('created_at', '>=', query.from)
    .where('created_at', '<', query.to)
    .where('status', '!=', 'pending')
    .where('endpoint_id', 'is not', null)
    .$if(query.keyId !== undefined, (select) => select.where('key_id', '=', query.keyId ?? ''))
    .$if(query.workspaceId !== undefined, (select) => select.where('workspace_id', '=', query.workspaceId ?? ''))
    .execute();
  const groups = new Map<string, ActivityRow>();
  for (const row of rows) {
    const date = new Date(dayStart(new Date(Number(row.created_at)))).toISOString().slice(0, 10);
    const endpointId = row.endpoint_id ?? '';
    const workspace = query.byWorkspace ? row.workspace_id : undefined;
    const group = [date, row.model, endpointId, workspace ?? ''].join('\u0000');
    let entry = groups.get(group);
    if (!entry) {
      entry = {
        date, model: row.model, endpointId, providerName: row.provider_name ?? row.provider_slug ?? '',
        ...(workspace !== undefined && { workspaceId: workspace }),
        usage: 0n, requests: 0, promptTokens: 0, completionTokens: 0, reasoningTokens: 0,
      };
      groups.set(group, entry);
    }
    entry.usage += BigInt(row.cost_units);
    entry.requests += 1;
    entry.promptTokens += row.prompt_tokens ?? 0;
    entry.completionTokens += row.completion_tokens ?? 0;
    entry.reasoningTokens += row.reasoning_tokens ?? 0;
  }
  return [...groups.values()].sort(newestDayFirst);
}

function newestDayFirst(a: ActivityRow, b: ActivityRow): number {
  return b.date.localeCompare(a.date) || a.model.localeCompare(b.model) || a.endpointId.localeCompare(b.endpointId) || (a.workspaceId ?? '').localeCompare(b.workspaceId ?? '');
}

/**
 * What the account spent per UTC day and model over `window`, exactly: one amount per day of the
 * window (oldest first) for every model that was charged in it, models in name order.
 */
export async function readSpendPerModel(db: Db, accountId: string, window: { from: number; to: number }): Promise<{ model: string; perDay: Units[] }[]> {
  const days = Math.round((window.to - window.from) / DAY_MS);
  const sums = new Map<string, Units[]>();
  for (const row of await readDailyActivity(db, accountId, window)) {
    const day = Math.floor((Date.parse(`${row.date}T00:00:00Z`) - window.from) / DAY_MS);
    const perDay = sums.get(row.model) ?? Array.from({ length: days }, () => 0n);
    perDay[day] = (perDay[day] ?? 0n) + row.usage;
    sums.set(row.model, perDay);
  }
  return [...sums.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([model, perDay]) => ({ model, perDay }));
}
