import { readAccountOverview, type AccountOverview } from '../accounts/account-overview.js';
import type { Ledger } from '../billing/types.js';
import { readAudit, type AuditEvent } from '../accounts/audit.js';
import { listKeys, type ManagedKey } from '../accounts/key-management.js';
import { usageInWindow } from '../accounts/scope-usage.js';
import { formatUsd, type Units } from '../billing/money.js';
import { listBatches } from '../batches/batch-rows.js';
import { listFiles } from '../files/file-rows.js';
import { FILE_LIFETIME_MS } from '../files/file-service.js';
import type { Store } from '../store/store.js';

/** Keys listed on the dashboard, newest first. */
const KEYS_SHOWN = 200;
/** Generations listed on the dashboard, newest first. */
const GENERATIONS_SHOWN = 20;
/** Batches and stored files listed on the dashboard, newest first. */
const BATCHES_SHOWN = 20;
const FILES_SHOWN = 20;
/** Audit rows per page. */
export const AUDIT_PAGE = 20;

/** A key's row in the Keys table. */
export interface KeyRow {
  hash: string;
  name: string;
  label: string;
  /** The callback origin of a key approved through the flow. */
  origin: string | null;
  workspace: string;
  management: boolean;
  limit: string;
  usage: string;
  state: 'active' | 'disabled' | 'expired';
  created: string;
  expires: string;
}

export interface GenerationRow {
  id: string;
  model: string;
  provider: string;
  status: string;
  tokens: string;
  cost: string;
  created: string;
}

/** A batch's row: its state and counts, and its results file while it exists. */
export interface BatchRowView {
  id: string;
  endpoint: string;
  status: string;
  counts: string;
  created: string;
  resultsFileId: string | null;
}

/** A stored file's row. */
export interface FileRowView {
  id: string;
  filename: string;
  purpose: string;
  size: string;
  expires: string;
}

export interface AuditRow {
  at: string;
  who: string;
  via: string;
  action: string;
  target: string;
  change: string;
  address: string;
}

export interface WorkspaceRow {
  id: string;
  name: string;
  limit: string;
  usage: string;
  routing: string;
}

/** Everything the dashboard shows, rendered as text. */
export interface DashboardView {
  accountName: string;
  balance: string;
  spendable: string;
  reserved: string;
  totalCredits: string;
  totalUsage: string;
  accountLimit: string;
  keys: KeyRow[];
  generations: GenerationRow[];
  batches: BatchRowView[];
  files: FileRowView[];
  workspaces: WorkspaceRow[];
  audit: AuditRow[];
  auditNext: string | null;
}

/** `$` and the exact decimal amount. */
export function usd(units: Units): string {
  return `$${formatUsd(units)}`;
}

/** A time as people read it: `2025-07-01 12:00 UTC`. */
export function utcTime(at: Date): string {
  return `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** The account's dashboard as it stands at `at`; null for an unknown account. */
export async function readDashboard(
  { store, ledger }: { store: Store; ledger: Pick<Ledger, 'reservedInProcess'> },
  accountId: string,
  auditAfter?: string,
  at: Date = new Date(),
): Promise<DashboardView | null> {
  const overview = await readAccountOverview(store, accountId, at, ledger.reservedInProcess?.(accountId));
  if (!overview) return null;
  const [keys, generations, batches, files, audit, people] = await Promise.all([
    listKeys(store, accountId, { includeDisabled: true, includeManagement: true, limit: KEYS_SHOWN }, at),
    recentGenerations(store, accountId),
    listBatches(store.db, accountId, { statuses: [], createdAfter: null, createdBefore: null, after: null, limit: BATCHES_SHOWN }),
    listFiles(store, accountId, { limit: FILES_SHOWN, order: 'desc' }, at.getTime()),
    readAudit(store.db, accountId, { limit: AUDIT_PAGE, ...(auditAfter !== undefined && { after: auditAfter }) }),
    store.db.selectFrom('users').select(['id', 'email']).where('account_id', '=', accountId).execute(),
  ]);
  const emails = new Map(people.map((person) => [person.id, person.email]));
  const workspaceNames = new Map(overview.workspaces.map((workspace) => [workspace.id, workspace.name]));
  return {
    accountName: overview.name,
    balance: usd(overview.balance),
    spendable: usd(overview.spendable),
    reserved: usd(overview.reserved),
    totalCredits: usd(overview.totalCredits),
    totalUsage: usd(overview.totalUsage),
    accountLimit: limitText(overview.limit, overview.usage),
    keys: keys.map((key) => keyRow(key, workspaceNames, at)),
    generations,
    batches: batches.slice(0, BATCHES_SHOWN).map((batch) => ({
      id: batch.id,
      endpoint: batch.endpoint,
      status: batch.status,
      counts: `${batch.completed} completed, ${batch.failed} failed of ${batch.total}`,
      created: utcTime(new Date(batch.created_at)),
      // the results file lives 48 hours after the batch ended
      resultsFileId: batch.finalized_at !== null && batch.finalized_at + FILE_LIFETIME_MS > at.getTime() ? batch.results_file_id : null,
    })),
    files: files.map((file) => ({
      id: file.id,
      filename: file.filename,
      purpose: file.purpose,
      size: byteSize(file.bytes),
      expires: utcTime(new Date(file.expiresAt)),
    })),
    workspaces: workspaceRows(overview),
    audit: audit.events.map((event) => auditRow(event, emails)),
    auditNext: audit.nextCursor,
  };
}

/** `812 B`, `3.4 KiB`, `96.0 MiB`. */
function byteSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
}

function limitText(limit: AccountOverview['limit'], usage: AccountOverview['usage']): string {
  if (!limit) return 'none';
  const window = limit.reset ?? 'lifetime';
  return `${usd(limit.limit)} ${window} (${usd(usageInWindow(limit.reset, usage))} used)`;
}

function keyRow(key: ManagedKey, workspaces: Map<string, string>, at: Date): KeyRow {
  const expired = key.expiresAt !== null && key.expiresAt.getTime() <= at.getTime();
  return {
    hash: key.hash,
    name: key.name,
    label: key.label,
    origin: key.origin,
    workspace: workspaces.get(key.workspaceId) ?? key.workspaceId,
    management: key.management,
    limit: key.limit ? `${usd(key.limit.limit)}${key.limit.reset ? ` ${key.limit.reset}` : ''}` : 'none',
    usage: key.limit?.reset ? `${usd(usageInWindow(key.limit.reset, key.usage))} this ${windowNoun(key.limit.reset)}, ${usd(key.usage.total)} in all` : usd(key.usage.total),
    state: key.disabled ? 'disabled' : expired ? 'expired' : 'active',
    created: utcTime(key.createdAt),
    expires: key.expiresAt ? utcTime(key.expiresAt) : 'never',
  };
}

function windowNoun(reset: 'daily' | 'weekly' | 'monthly'): string {
  return reset === 'daily' ? 'day' : reset === 'weekly' ? 'week' : 'month';
}

function workspaceRows(overview: AccountOverview): WorkspaceRow[] {
  return overview.workspaces.map((workspace) => ({
    id: workspace.id,
    name: workspace.name,
    limit: limitText(workspace.limit, workspace.usage),
    usage: usd(workspace.usage.total),
    routing: workspace.routingDefaults === null || workspace.routingDefaults === undefined ? '' : JSON.stringify(workspace.routingDefaults, null, 2),
  }));
}

async function recentGenerations(store: Store, accountId: string): Promise<GenerationRow[]> {
  const rows = await store.db
    .selectFrom('generations')
    .select(['id', 'model', 'provider_name', 'status', 'prompt_tokens', 'completion_tokens', 'cost_units', 'created_at'])
    .where('account_id', '=', accountId)
    .where('status', '!=', 'pending')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(GENERATIONS_SHOWN)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    model: row.model,
    provider: row.provider_name ?? '—',
    status: row.status,
    tokens: `${row.prompt_tokens ?? '—'} / ${row.completion_tokens ?? '—'}`,
    cost: usd(BigInt(row.cost_units)),
    created: utcTime(new Date(row.created_at)),
  }));
}

function auditRow(event: AuditEvent, emails: Map<string, string>): AuditRow {
  return {
    at: utcTime(new Date(event.at)),
    who: actorText(event.actor, emails),
    via: event.via,
    action: event.action,
    target: event.target ?? '',
    change: `${compact(event.before)} → ${compact(event.after)}`,
    address: event.address ?? '',
  };
}

function actorText(actor: AuditEvent['actor'], emails: Map<string, string>): string {
  switch (actor.kind) {
    case 'user':
      return emails.get(actor.id ?? '') ?? `person ${actor.id ?? ''}`;
    case 'management_key':
      return `management key ${(actor.id ?? '').slice(0, 12)}…`;
    case 'cli':
      return 'operator (CLI)';
    default:
      return String(actor.kind);
  }
}

function compact(value: unknown): string {
  return value === null || value === undefined ? '—' : JSON.stringify(value);
}
