import { sql } from 'kysely';
import type { CatalogueSource } from '../catalogue/source.js';
import type { ReadinessProbe, ReadinessReport } from '../http/operator-views.js';
import type { Store } from '../store/store.js';
import type { KeyStore } from '../files/key-store.js';

/** One thing an instance needs before it can serve: resolves when it is there, throws the reason when not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
  /** Reported, but the instance serves without it (Redis: the rate limits fall back per instance). */
  advisory?: true;
}

/** How long one check may take before it counts as failed: a database that does not answer is not ready. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * Readiness as a list of named checks, all run on every probe (the database, the key store and the
 * catalogue, Redis when there is one). Ready when every check passes but the advisory ones.
 */
export function readinessProbe(checks: readonly ReadinessCheck[]): ReadinessProbe {
  return {
    async probe(): Promise<ReadinessReport> {
      const results = await Promise.all(checks.map(async ({ name, check, advisory }) => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          return { result: { name, ok: true }, advisory };
        } catch (error) {
          return { result: { name, ok: false, reason: error instanceof Error ? error.message : String(error) }, advisory };
        }
      }));
      return { ready: results.every(({ result, advisory }) => result.ok || advisory), checks: results.map(({ result }) => result) };
    },
  };
}

/** The database answers a query. */
export function databaseCheck(store: Pick<Store, 'db'>): ReadinessCheck {
  return {
    name: 'database',
    async check() {
      await sql`SELECT 1`.execute(store.db);
    },
  };
}

/**
 * The key store holding the data keys of stored files answers a query. Advisory: without it only
 * sealed data is refused (503), while inference and everything else is served, so a load balancer
 * must not take the whole fleet out when it is away.
 */
export function keyStoreCheck(keys: Pick<KeyStore, 'ping'>): ReadinessCheck {
  return {
    name: 'key store',
    advisory: true,
    check: () => keys.ping(),
  };
}

/**
 * Redis answers. Advisory: while it does not, the instance still serves, each rate limit enforced
 * at its share, and `/readyz` says so.
 */
export function redisCheck(redis: { ping(): Promise<unknown>; status: string }): ReadinessCheck {
  return {
    name: 'redis',
    advisory: true,
    async check() {
      if (redis.status !== 'ready') throw new Error(`Redis cannot be reached (${redis.status}): rate limits are enforced per instance at their share`);
      await redis.ping();
    },
  };
}

/** A catalogue is loaded and serves at least one endpoint (one not `disabled`). */
export function catalogueCheck(catalogue: CatalogueSource): ReadinessCheck {
  return {
    name: 'catalogue',
    async check() {
      for (const endpoint of catalogue.current().endpoints.values()) if (!endpoint.disabled) return;
      throw new Error('the catalogue serves no endpoint');
    },
  };
}

async function withTimeout(work: Promise<void>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  try {
    await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
