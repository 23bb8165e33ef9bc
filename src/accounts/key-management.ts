import { maxUnits, type Units } from '../billing/money.js';
import type { ApiKeysTable } from '../store/schema.js';
import type { Db, Store } from '../store/store.js';
import { recordAudit, type ChangeContext } from './audit.js';
import { keyAuditView } from './accounts.js';
import { bumpKeyRevision } from './key-revision.js';
import { emptyUsage, readScopesUsage, usageInWindow, type ScopeUsage } from './scope-usage.js';
import { checkedSpendLimit, spendLimitOf } from './spend-limits.js';
import type { SpendLimit } from './types.js';

/** One key of an account as the management API, the pages and the CLI show it: never the raw key. */
export interface ManagedKey {
  id: string;
  /** SHA-256 hex of the raw key: its public id (`/keys/{hash}`). */
  hash: string;
  accountId: string;
  workspaceId: string;
  name: string;
  /** Masked form, e.g. `sk-svc-v1-abc...f09`. */
  label: string;
  management: boolean;
  disabled: boolean;
  revoked: boolean;
  /** The key's own limit. */
  limit: SpendLimit | null;
  usage: ScopeUsage;
  /** The limit minus the usage in its window, never below 0; null without a limit. */
  limitRemaining: Units | null;
  createdAt: Date;
  updatedAt: Date | null;
  expiresAt: Date | null;
  creatorUserId: string | null;
  origin: string | null;
}

export interface ListKeysOptions {
  offset?: number;
  /** Most keys returned (default `DEFAULT_KEY_PAGE`). */
  limit?: number;
  includeDisabled?: boolean;
  includeManagement?: boolean;
  includeRevoked?: boolean;
  workspaceId?: string;
}

export const DEFAULT_KEY_PAGE = 100;

/** What `updateKey` may change; an absent member is left as it is, `limit: null` removes the limit. */
export interface KeyPatch {
  name?: string;
  disabled?: boolean;
  limit?: SpendLimit | null;
}

export const KEY_NAME_MAX_LENGTH = 200;

/**
 * The account's keys, newest first. By default inference keys only, live (not revoked), and
 * disabled keys excluded unless `includeDisabled`. Usage is read for the whole page in one query.
 */
export async function listKeys(store: Store, accountId: string, options: ListKeysOptions = {}, at: Date = new Date()): Promise<ManagedKey[]> {
  const rows = await store.db
    .selectFrom('api_keys')
    .selectAll()
    .where('account_id', '=', accountId)
    .$if(options.includeManagement !== true, (query) => query.where('management', '=', 0))
    .$if(options.includeRevoked !== true, (query) => query.where('revoked_at', 'is', null))
    .$if(options.includeDisabled !== true, (query) => query.where('disabled', '=', 0))
    .$if(options.workspaceId !== undefined, (query) => query.where('workspace_id', '=', options.workspaceId ?? ''))
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(options.limit ?? DEFAULT_KEY_PAGE)
    .offset(options.offset ?? 0)
    .execute();
  const usage = await readScopesUsage(store.db, 'key', rows.map((row) => row.id), at);
  return rows.map((row) => managedKey(row, usage.get(row.id) ?? emptyUsage()));
}

/** A live (not revoked) key of this account by its hash; null for anything else. */
export async function findKey(store: Store, accountId: string, hash: string, at: Date = new Date()): Promise<ManagedKey | null> {
  const row = await liveKeyRow(store.db, accountId, hash);
  if (!row) return null;
  const usage = await readScopesUsage(store.db, 'key', [row.id], at);
  return managedKey(row, usage.get(row.id) ?? emptyUsage());
}

/**
 * Changes a live key of this account (name, disabled, its own limit) in one transaction: sets
 * `updated_at`, advances the key revision (so every process drops its cached view of the key at
 * once) and records `key.update` with the settings before and after. Returns the key as it now
 * stands, or null when no such live key exists. Throws RangeError (message starting with the
 * field's name) for an empty or overlong name or a negative limit.
 */
export async function updateKey(store: Store, accountId: string, hash: string, patch: KeyPatch, context: ChangeContext): Promise<ManagedKey | null> {
  const name = patch.name === undefined ? undefined : checkedKeyName(patch.name);
  if (patch.limit) checkedSpendLimit(patch.limit.limit);
  const at = new Date();
  const updated = await store.write(async (tx) => {
    const row = await liveKeyRow(tx, accountId, hash);
    if (!row) return null;
    const next: ApiKeysTable = {
      ...row,
      ...(name !== undefined && { name }),
      ...(patch.disabled !== undefined && { disabled: patch.disabled ? 1 : 0 }),
      ...(patch.limit !== undefined && {
        limit_units: patch.limit === null ? null : patch.limit.limit.toString(),
        limit_reset: patch.limit === null ? null : patch.limit.reset,
      }),
      updated_at: at.getTime(),
    };
    await tx
      .updateTable('api_keys')
      .set({ name: next.name, disabled: next.disabled, limit_units: next.limit_units, limit_reset: next.limit_reset, updated_at: next.updated_at })
      .where('id', '=', row.id)
      .execute();
    await bumpKeyRevision(tx);
    await recordAudit(tx, context, { accountId, action: 'key.update', target: row.hash, before: auditView(row), after: auditView(next) }, at);
    return next;
  });
  if (!updated) return null;
  const usage = await readScopesUsage(store.db, 'key', [updated.id], at);
  return managedKey(updated, usage.get(updated.id) ?? emptyUsage());
}

/** A key's name as stored: trimmed; RangeError (message starting `name`) when empty or over KEY_NAME_MAX_LENGTH. */
export function checkedKeyName(name: string): string {
  const trimmed = name.trim();
  if (trimmed === '') throw new RangeError('name must not be empty');
  if (trimmed.length > KEY_NAME_MAX_LENGTH) throw new RangeError(`name must be at most ${KEY_NAME_MAX_LENGTH} characters`);
  return trimmed;
}

async function liveKeyRow(db: Db, accountId: string, hash: string): Promise<ApiKeysTable | undefined> {
  return db
    .selectFrom('api_keys')
    .selectAll()
    .where('hash', '=', hash)
    .where('account_id', '=', accountId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
}

function managedKey(row: ApiKeysTable, usage: ScopeUsage): ManagedKey {
  const limit = spendLimitOf(row.limit_units, row.limit_reset);
  return {
    id: row.id,
    hash: row.hash,
    accountId: row.account_id,
    workspaceId: row.workspace_id,
    name: row.name,
    label: row.label,
    management: row.management !== 0,
    disabled: row.disabled !== 0,
    revoked: row.revoked_at !== null,
    limit,
    usage,
    limitRemaining: limit ? maxUnits(0n, limit.limit - usageInWindow(limit.reset, usage)) : null,
    createdAt: new Date(row.created_at),
    updatedAt: row.updated_at === null ? null : new Date(row.updated_at),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    creatorUserId: row.creator_user_id,
    origin: row.origin,
  };
}

function auditView(row: ApiKeysTable): Record<string, unknown> {
  const limit = spendLimitOf(row.limit_units, row.limit_reset);
  return keyAuditView({
    name: row.name,
    workspaceId: row.workspace_id,
    management: row.management !== 0,
    limit: limit?.limit ?? null,
    limitReset: limit?.reset ?? null,
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
    disabled: row.disabled !== 0,
  });
}

