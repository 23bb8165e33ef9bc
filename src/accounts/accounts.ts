import { ledgerTables } from '../billing/ledger-engine.js';
import type { LedgerEntry } from '../billing/ledger-tables.js';
import { formatUsd, type Units } from '../billing/money.js';
import type { Store } from '../store/store.js';
import { CLI_CHANGE, recordAudit, type ChangeContext } from './audit.js';
import { bumpKeyRevision } from './key-revision.js';
import { checkedSpendLimit } from './spend-limits.js';
import { generateKey, hashKey, isWellFormedKey, LEGACY_KEY_PREFIX } from './key-format.js';
import { insertKey, parseAmount, resolveWorkspace, type KeyFields } from './key-writer.js';
import { newRecordId, newTimeOrderedRecordId } from './record-id.js';
import type { LimitReset } from './types.js';

export interface CreatedAccount {
  accountId: string;
  workspaceId: string;
  /** The raw inference key: shown once, never stored. */
  key: string;
  keyId: string;
}

/** Creates an account with its default workspace and one inference key, funded with `creditsUsd`. */
export async function createAccount(
  store: Store,
  input: { name: string; creditsUsd?: string },
  context: ChangeContext = CLI_CHANGE,
): Promise<CreatedAccount> {
  if (input.name.trim() === '') throw new RangeError('account name must not be empty');
  const credits = input.creditsUsd === undefined ? 0n : parseAmount(input.creditsUsd, 'credits', true);
  const at = new Date();
  const accountId = newRecordId('acct');
  const workspaceId = newRecordId('ws');
  const key = generateKey();
  const keyId = await store.write(async (tx) => {
    await tx
      .insertInto('accounts')
      .values({ id: accountId, name: input.name, balance_units: credits.toString(), reserved_units: '0', suspended: 0, created_at: at.getTime() })
      .execute();
    await tx
      .insertInto('workspaces')
      .values({ id: workspaceId, account_id: accountId, name: 'Default', routing_defaults: null, created_at: at.getTime() })
      .execute();
    if (credits > 0n) await ledgerTables(store, tx).insertEntry(deposit(accountId, credits, at));
    await recordAudit(tx, context, { accountId, action: 'account.create', target: accountId, before: null, after: { name: input.name, credits_usd: formatUsd(credits) } }, at);
    const fields = defaultKeyFields(accountId, workspaceId, 'Default');
    const id = await insertKey(tx, key, fields, at);
    await recordAudit(tx, context, { accountId, action: 'key.create', target: hashKey(key), before: null, after: keyAuditView(fields) }, at);
    return id;
  });
  return { accountId, workspaceId, key, keyId };
}

/** Adds a deposit to the balance and the ledger; returns the new balance. */
export async function addCredits(store: Store, accountId: string, usd: string, context: ChangeContext = CLI_CHANGE): Promise<Units> {
  const amount = parseAmount(usd, 'amount', false);
  return store.write(async (tx) => {
    const tables = ledgerTables(store, tx);
    const account = await tables.lockAccount(accountId);
    if (!account) throw new Error(`account ${accountId} does not exist`);
    const balance = account.balance + amount;
    await tables.writeAccount(accountId, { balance, reserved: account.reserved });
    await tables.insertEntry(deposit(accountId, amount, new Date()));
    await recordAudit(tx, context, {
      accountId, action: 'credits.add', target: accountId, before: { balance_usd: formatUsd(account.balance) }, after: { balance_usd: formatUsd(balance), added_usd: formatUsd(amount) },
    });
    return balance;
  });
}

export interface KeyRequest {
  accountId: string;
  workspaceId?: string;
  name?: string;
  management?: boolean;
  /** Spend limit as a USD decimal string. */
  limitUsd?: string;
  limitReset?: LimitReset;
  expiresAt?: Date;
  /** The person creating it (dashboard, approval). */
  creatorUserId?: string;
  /** The callback origin of a key issued through the approval flow. */
  origin?: string;
}

/**
 * Issues a new key in the account (default workspace unless one is named); audited as `key.create`
 * under the key's hash. Returns the raw key (shown once), its id and its hash.
 */
export async function createKey(store: Store, request: KeyRequest, context: ChangeContext = CLI_CHANGE): Promise<{ key: string; id: string; hash: string }> {
  const key = generateKey();
  const id = await issue(store, key, request, context);
  return { key, id, hash: hashKey(key) };
}

/** Stores a key issued under the earlier `sk-legacy-v1-` prefix, so it keeps working. */
export async function importLegacyKey(store: Store, rawKey: string, request: KeyRequest): Promise<string> {
  if (!rawKey.startsWith(LEGACY_KEY_PREFIX) || !isWellFormedKey(rawKey)) {
    throw new RangeError(`a legacy key is ${LEGACY_KEY_PREFIX} followed by 64 lowercase hex characters`);
  }
  return issue(store, rawKey, request, CLI_CHANGE);
}

async function issue(store: Store, rawKey: string, request: KeyRequest, context: ChangeContext): Promise<string> {
  const limit = request.limitUsd === undefined ? null : checkedSpendLimit(parseAmount(request.limitUsd, 'limit', true));
  if (request.limitReset !== undefined && limit === null) {
    throw new RangeError('a limit reset needs a limit');
  }
  if (request.expiresAt !== undefined && Number.isNaN(request.expiresAt.getTime())) {
    throw new RangeError('expiry is not a valid date');
  }
  return store.write(async (tx) => {
    const workspaceId = await resolveWorkspace(tx, request.accountId, request.workspaceId);
    const fields: KeyFields = {
      ...defaultKeyFields(request.accountId, workspaceId, request.name ?? 'API key'),
      management: request.management ?? false,
      limit,
      limitReset: request.limitReset ?? null,
      expiresAt: request.expiresAt ?? null,
      ...(request.creatorUserId !== undefined && { creatorUserId: request.creatorUserId }),
      ...(request.origin !== undefined && { origin: request.origin }),
    };
    const id = await insertKey(tx, rawKey, fields, new Date());
    await recordAudit(tx, context, { accountId: request.accountId, action: 'key.create', target: hashKey(rawKey), before: null, after: keyAuditView(fields) });
    return id;
  });
}

/** A key's settings as the audit trail keeps them: never the key, its hash or its label. */
export function keyAuditView(fields: Pick<KeyFields, 'name' | 'workspaceId' | 'management' | 'limit' | 'limitReset' | 'expiresAt'> & { origin?: string; disabled?: boolean }): Record<string, unknown> {
  return {
    name: fields.name,
    workspace_id: fields.workspaceId,
    management: fields.management,
    limit_usd: fields.limit === null ? null : formatUsd(fields.limit),
    limit_reset: fields.limitReset,
    expires_at: fields.expiresAt === null ? null : fields.expiresAt.toISOString(),
    ...(fields.origin !== undefined && { origin: fields.origin }),
    ...(fields.disabled !== undefined && { disabled: fields.disabled }),
  };
}

/**
 * Revokes one key at once (by id, or within `accountId` by hash); other keys are untouched.
 * Returns false when no such live key exists. Audited as `key.revoke`.
 */
export async function revokeKey(store: Store, key: { id: string } | { accountId: string; hash: string }, context: ChangeContext = CLI_CHANGE): Promise<boolean> {
  return store.write(async (tx) => {
    const row = await tx
      .selectFrom('api_keys')
      .select(['id', 'account_id', 'hash', 'name'])
      .$if('id' in key, (query) => query.where('id', '=', 'id' in key ? key.id : ''))
      .$if('hash' in key, (query) => query.where('hash', '=', 'hash' in key ? key.hash : '').where('account_id', '=', 'accountId' in key ? key.accountId : ''))
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    if (!row) return false;
    const at = new Date();
    await tx.updateTable('api_keys').set({ revoked_at: at.getTime(), updated_at: at.getTime() }).where('id', '=', row.id).execute();
    await bumpKeyRevision(tx);
    await recordAudit(tx, context, { accountId: row.account_id, action: 'key.revoke', target: row.hash, before: { name: row.name }, after: null }, at);
    return true;
  });
}

/** Suspends (or reinstates) an account: its keys stop authenticating at once. */
export async function setAccountSuspended(store: Store, accountId: string, suspended: boolean): Promise<void> {
  await store.write(async (tx) => {
    await tx.updateTable('accounts').set({ suspended: suspended ? 1 : 0 }).where('id', '=', accountId).execute();
    await bumpKeyRevision(tx);
  });
}

function defaultKeyFields(accountId: string, workspaceId: string, name: string): KeyFields {
  return { accountId, workspaceId, name, management: false, limit: null, limitReset: null, expiresAt: null };
}

function deposit(accountId: string, amount: Units, at: Date): LedgerEntry {
  return { id: newTimeOrderedRecordId('led'), accountId, amount, kind: 'deposit', generationId: null, at };
}
