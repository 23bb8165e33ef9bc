import { ledgerTables } from '../billing/ledger-engine.js';
import type { LedgerEntry } from '../billing/ledger-tables.js';
import type { Units } from '../billing/money.js';
import type { Store } from '../store/store.js';
import { bumpKeyRevision } from './key-revision.js';
import { generateKey, isWellFormedKey, LEGACY_KEY_PREFIX } from './key-format.js';
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
    return insertKey(tx, key, defaultKeyFields(accountId, workspaceId, 'Default'), at);
  });
  return { accountId, workspaceId, key, keyId };
}

/** Adds a deposit to the balance and the ledger; returns the new balance. */
export async function addCredits(store: Store, accountId: string, usd: string): Promise<Units> {
  const amount = parseAmount(usd, 'amount', false);
  return store.write(async (tx) => {
    const tables = ledgerTables(store, tx);
    const account = await tables.lockAccount(accountId);
    if (!account) throw new Error(`account ${accountId} does not exist`);
    const balance = account.balance + amount;
    await tables.writeAccount(accountId, { balance, reserved: account.reserved });
    await tables.insertEntry(deposit(accountId, amount, new Date()));
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
}

/** Issues a new key in the account (default workspace unless one is named). */
export async function createKey(store: Store, request: KeyRequest): Promise<{ key: string; id: string }> {
  const key = generateKey();
  const id = await issue(store, key, request);
  return { key, id };
}

/** Stores a key issued under the earlier `sk-legacy-v1-` prefix, so it keeps working. */
export async function importLegacyKey(store: Store, rawKey: string, request: KeyRequest): Promise<string> {
  if (!rawKey.startsWith(LEGACY_KEY_PREFIX) || !isWellFormedKey(rawKey)) {
    throw new RangeError(`a legacy key is ${LEGACY_KEY_PREFIX} followed by 64 lowercase hex characters`);
  }
  return issue(store, rawKey, request);
}

async function issue(store: Store, rawKey: string, request: KeyRequest): Promise<string> {
  const limit = request.limitUsd === undefined ? null : parseAmount(request.limitUsd, 'limit', true);
  if (request.limitReset !== undefined && limit === null) {
    throw new RangeError('a limit reset needs a limit');
  }
  if (request.expiresAt !== undefined && Number.isNaN(request.expiresAt.getTime())) {
    throw new RangeError('expiry is not a valid date');
  }
  return store.write(async (tx) => {
    const workspaceId = await resolveWorkspace(tx, request.accountId, request.workspaceId);
    return insertKey(
      tx,
      rawKey,
      {
        ...defaultKeyFields(request.accountId, workspaceId, request.name ?? 'API key'),
        management: request.management ?? false,
        limit,
        limitReset: request.limitReset ?? null,
        expiresAt: request.expiresAt ?? null,
      },
      new Date(),
    );
  });
}

/** Revokes one key at once; other keys are untouched. Returns false when no such live key exists. */
export async function revokeKey(store: Store, keyId: string): Promise<boolean> {
  const result = await store.write(async (tx) => {
    const revoked = await tx
      .updateTable('api_keys')
      .set({ revoked_at: Date.now() })
      .where('id', '=', keyId)
      .where('revoked_at', 'is', null)
      .executeTakeFirst();
    await bumpKeyRevision(tx);
    return revoked;
  });
  return result.numUpdatedRows > 0n;
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
