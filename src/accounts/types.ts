import type { Units } from '../billing/money.js';
import type { ProviderPreferences } from '../core/request.js';

export type LimitReset = 'daily' | 'weekly' | 'monthly';

/** The three scopes a spend limit can sit on. */
export type SpendScope = 'key' | 'workspace' | 'account';

export const SPEND_SCOPES: readonly SpendScope[] = ['key', 'workspace', 'account'];

/** A spend limit: at most `limit` charged (and held) per UTC window, or in all when `reset` is null. */
export interface SpendLimit {
  limit: Units;
  reset: LimitReset | null;
}

/** The spend limits a key's requests are held against, by scope; a scope without a limit is absent. */
export type ScopeLimits = Partial<Record<SpendScope, SpendLimit>>;

/** What an authenticated request knows about its key. */
export interface KeyContext {
  keyId: string;
  /** SHA-256 hex of the raw key: the key's public id (`/keys/{hash}`) and its audit actor id. */
  hash: string;
  accountId: string;
  workspaceId: string;
  name: string;
  /** Masked form of the key, e.g. `sk-svc-v1-abc...f09`. */
  label: string;
  management: boolean;
  /** The limits of the key, its workspace and its account, as they stood when the key was read. */
  scopeLimits: ScopeLimits;
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
  /** The key behind `hash` as it stands now (a batch checks its submitting key before every request), on the same terms. */
  current(hash: string): Promise<KeyContext | null>;
  inspect(key: KeyContext): Promise<KeyInspection>;
}
