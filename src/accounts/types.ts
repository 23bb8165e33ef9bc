import type { Units } from '../billing/money.js';
import type { ProviderPreferences } from '../core/request.js';

export type LimitReset = 'daily' | 'weekly' | 'monthly';

/** What an authenticated request knows about its key. */
export interface KeyContext {
  keyId: string;
  accountId: string;
  workspaceId: string;
  name: string;
  /** Masked form of the key, e.g. `sk-svc-v1-abc...f09`. */
  label: string;
  management: boolean;
  limit: Units | null;
  limitReset: LimitReset | null;
  expiresAt: Date | null;
  /** The workspace's routing defaults, applied beneath a request's own `provider` preferences. */
  routingDefaults?: ProviderPreferences;
}

/** The key inspection record of `GET /key` (spec 02), before the `{data}` wrapper. */
export interface KeyInspection {
  label: string;
  name: string;
  limit: number | null;
  limit_remaining: number | null;
  limit_reset: LimitReset | null;
  usage: number;
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  is_free_tier: boolean;
  expires_at: string | null;
}

export interface KeyDirectory {
  /** The key behind a raw bearer value, or null for missing/malformed/unknown/revoked/expired/suspended. */
  authenticate(rawKey: string | undefined): Promise<KeyContext | null>;
  inspect(key: KeyContext): Promise<KeyInspection>;
}
