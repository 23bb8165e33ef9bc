import { maxUnits, toUsdNumber, type Units } from '../billing/money.js';
import type { Store } from '../store/store.js';
import { KeyCache } from './key-cache.js';
import { keyRevisionReader, type KeyRevisionReader } from './key-revision.js';
import { hashKey, isWellFormedKey } from './key-format.js';
import { readScopeUsage, usageInWindow, type ScopeUsage } from './scope-usage.js';
import type { KeyContext, KeyDirectory, KeyInspection, LimitReset } from './types.js';
import { scopeLimits, spendLimitOf } from './spend-limits.js';
import { readRoutingDefaults } from './workspace-routing.js';

export interface KeyDirectoryOptions {
  /** Clock for expiry and usage windows (tests pin it). */
  now?: () => Date;
  /** The cache of valid keys; one per process, handed in by whoever builds the services. */
  cache?: KeyCache;
  /** Where the cache learns that keys changed; default the store's key revision. */
  revision?: KeyRevisionReader;
}

/**
 * Keys as the HTTP layer sees them. Valid keys are served from a bounded in-memory cache that is
 * dropped whenever the key revision moved (every revocation, suspension or change of a key's
 * settings advances it in the same transaction, from any process), so a revocation is honoured as
 * soon as the revision source reads it: by default at the very next request, on SQLite and
 * PostgreSQL alike (the gateway's sources: fleet-caches.ts).
 */
export function createKeyDirectory(store: Store, options: KeyDirectoryOptions = {}): KeyDirectory {
  const now = options.now ?? (() => new Date());
  const cache = options.cache ?? new KeyCache();
  const revision = options.revision ?? keyRevisionReader(store);
  return {
    authenticate: (rawKey) => keyByRawKey({ store, cache, revision }, rawKey, now()),
    current: (hash) => keyByHash({ store, cache, revision }, hash, now()),
    inspect: async (key) => inspection(key, await readScopeUsage(store.db, { scope: 'key', id: key.keyId }, now())),
  };
}

interface KeySources {
  store: Store;
  cache: KeyCache;
  revision: KeyRevisionReader;
}

/**
 * The key presented as `rawKey`. Its hash is computed once and then remembered by the cache, for as
 * long as the key authenticates and the cache is not dropped; a value that is not a well-formed key
 * never reaches the database.
 */
async function keyByRawKey(sources: KeySources, rawKey: string | undefined, at: Date): Promise<KeyContext | null> {
  if (rawKey === undefined) return null;
  const remembered = sources.cache.hashOf(rawKey);
  if (remembered !== undefined) return keyByHash(sources, remembered, at);
  if (!isWellFormedKey(rawKey)) return null;
  const epoch = sources.cache.epoch;
  const hash = hashKey(rawKey);
  const key = await keyByHash(sources, hash, at);
  if (key) sources.cache.rememberHash(rawKey, hash, epoch);
  return key;
}

async function keyByHash(sources: KeySources, hash: string, at: Date): Promise<KeyContext | null> {
  const { cache } = sources;
  cache.observe(await sources.revision());
  const hit = cache.get(hash);
  if (hit) return isExpired(hit, at) ? null : hit;
  const epoch = cache.epoch;
  const key = await readKey(sources.store, hash);
  if (!key || isExpired(key, at)) return null;
  cache.set(hash, key, epoch);
  return key;
}

function isExpired(key: KeyContext, at: Date): boolean {
  return key.expiresAt !== null && key.expiresAt.getTime() <= at.getTime();
}

/** The key behind `hash` when it exists, is neither revoked nor disabled, and its account is not suspended. */
async function readKey(store: Store, hash: string): Promise<KeyContext | null> {
  const row = await store.db
    .selectFrom('api_keys')
    .innerJoin('accounts', 'accounts.id', 'api_keys.account_id')
    .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
    .select([
      'api_keys.id',
      'api_keys.account_id',
      'api_keys.workspace_id',
      'api_keys.name',
      'api_keys.label',
      'api_keys.management',
      'api_keys.limit_units as key_limit',
      'api_keys.limit_reset as key_reset',
      'api_keys.expires_at',
      'api_keys.revoked_at',
      'api_keys.disabled',
      'accounts.suspended',
      'accounts.limit_units as account_limit',
      'accounts.limit_reset as account_reset',
      'workspaces.limit_units as workspace_limit',
      'workspaces.limit_reset as workspace_reset',
      'workspaces.routing_defaults',
    ])
    .where('api_keys.hash', '=', hash)
    .executeTakeFirst();
  if (!row || row.revoked_at !== null || row.disabled !== 0 || row.suspended !== 0) return null;
  const routingDefaults = readRoutingDefaults(row.routing_defaults);
  return {
    ...(routingDefaults && { routingDefaults }),
    keyId: row.id,
    hash,
    accountId: row.account_id,
    workspaceId: row.workspace_id,
    name: row.name,
    label: row.label,
    management: row.management !== 0,
    scopeLimits: scopeLimits({
      key: spendLimitOf(row.key_limit, row.key_reset),
      workspace: spendLimitOf(row.workspace_limit, row.workspace_reset),
      account: spendLimitOf(row.account_limit, row.account_reset),
    }),
    expiresAt: row.expires_at === null ? null : new Date(row.expires_at),
  };
}

/** The key inspection record: amounts in USD as JSON numbers, remaining never below zero. */
export function inspection(key: KeyContext, usage: ScopeUsage): KeyInspection {
  const limit = key.scopeLimits.key;
  return {
    label: key.label,
    name: key.name,
    limit: limit ? toUsdNumber(limit.limit) : null,
    limit_remaining: limit ? toUsdNumber(maxUnits(0n, limit.limit - usageInWindow(limit.reset, usage))) : null,
    limit_reset: limit?.reset ?? null,
    usage: toUsdNumber(usage.total),
    usage_daily: toUsdNumber(usage.daily),
    usage_weekly: toUsdNumber(usage.weekly),
    usage_monthly: toUsdNumber(usage.monthly),
    is_free_tier: false,
    expires_at: key.expiresAt === null ? null : key.expiresAt.toISOString(),
  };
}
