import { parseUsd, type Units } from '../billing/money.js';
import type { Db } from '../store/store.js';
import { hashKey, labelKey } from './key-format.js';
import { newRecordId } from './record-id.js';
import type { LimitReset } from './types.js';

export interface KeyFields {
  accountId: string;
  workspaceId: string;
  name: string;
  management: boolean;
  limit: Units | null;
  limitReset: LimitReset | null;
  expiresAt: Date | null;
  /** The person creating it (dashboard, approval); absent from the CLI and the management API. */
  creatorUserId?: string;
  /** The callback origin of a key issued through the approval flow. */
  origin?: string;
}

/** Stores a key by its hash and label only; returns the new key id. */
export async function insertKey(tx: Db, rawKey: string, fields: KeyFields, at: Date): Promise<string> {
  const id = newRecordId('key');
  await tx
    .insertInto('api_keys')
    .values({
      id,
      workspace_id: fields.workspaceId,
      account_id: fields.accountId,
      name: fields.name,
      hash: hashKey(rawKey),
      label: labelKey(rawKey),
      management: fields.management ? 1 : 0,
      limit_units: fields.limit === null ? null : fields.limit.toString(),
      limit_reset: fields.limitReset,
      expires_at: fields.expiresAt === null ? null : fields.expiresAt.getTime(),
      revoked_at: null,
      created_at: at.getTime(),
      disabled: 0,
      updated_at: null,
      creator_user_id: fields.creatorUserId ?? null,
      origin: fields.origin ?? null,
    })
    .execute();
  return id;
}

/** A non-negative USD decimal string as units; `what` names the field in the message. */
export function parseAmount(usd: string, what: string, allowZero: boolean): Units {
  let units: Units;
  try {
    units = parseUsd(usd);
  } catch {
    throw new RangeError(`${what} must be a decimal USD amount such as "10" or "2.50", got ${JSON.stringify(usd)}`);
  }
  if (units < 0n || (!allowZero && units === 0n)) {
    throw new RangeError(`${what} must be ${allowZero ? 'zero or more' : 'more than zero'}, got ${usd}`);
  }
  return units;
}

/** The workspace a new key goes to: the one named (it must belong to the account) or the oldest. */
export async function resolveWorkspace(tx: Db, accountId: string, workspaceId?: string): Promise<string> {
  const row = await tx
    .selectFrom('workspaces')
    .select('id')
    .where('account_id', '=', accountId)
    .$if(workspaceId !== undefined, (query) => query.where('id', '=', workspaceId ?? ''))
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  if (!row) {
    throw new Error(
      workspaceId === undefined
        ? `account ${accountId} has no workspace`
        : `workspace ${workspaceId} does not exist in account ${accountId}`,
    );
  }
  return row.id;
}
