import type { Static } from '@sinclair/typebox';
import type { ManagedKey } from '../../accounts/key-management.js';
import type { KeyRecordSchema } from '../../accounts/key-record-schema.js';
import { toUsdNumber } from '../../billing/money.js';

export type KeyRecord = Static<typeof KeyRecordSchema>;

/** A managed key as the `/keys` routes answer it: amounts as USD numbers, never the key itself. */
export function keyRecord(key: ManagedKey): KeyRecord {
  return {
    hash: key.hash,
    name: key.name,
    label: key.label,
    disabled: key.disabled,
    limit: key.limit ? toUsdNumber(key.limit.limit) : null,
    limit_remaining: key.limitRemaining === null ? null : toUsdNumber(key.limitRemaining),
    limit_reset: key.limit?.reset ?? null,
    include_byok_in_limit: false,
    usage: toUsdNumber(key.usage.total),
    usage_daily: toUsdNumber(key.usage.daily),
    usage_weekly: toUsdNumber(key.usage.weekly),
    usage_monthly: toUsdNumber(key.usage.monthly),
    byok_usage: 0,
    byok_usage_daily: 0,
    byok_usage_weekly: 0,
    byok_usage_monthly: 0,
    created_at: key.createdAt.toISOString(),
    updated_at: key.updatedAt === null ? null : key.updatedAt.toISOString(),
    expires_at: key.expiresAt === null ? null : key.expiresAt.toISOString(),
    workspace_id: key.workspaceId,
    creator_user_id: key.creatorUserId,
    external_user: null,
    origin: key.origin,
  };
}
