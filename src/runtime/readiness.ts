import { sql } from 'kysely';
import type { CatalogueSource } from '../catalogue/source.js';
import type { ReadinessProbe, ReadinessReport } from '../http/operator-views.js';
import type { Store } from '../store/store.js';
import type { KeyStore } from '../files/key-store.js';

/** One thing an instance needs before it can serve: resolves when it is there, throws the reason when not. */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** How long one check may take before it counts as failed: a database that does not answer is not ready. */
const CHECK_TIMEOUT_MS = 2_000;

/**
 * Readiness as a list of named checks, all run on every probe (the database, the key store and the
 * catalogue now; Redis joins the list when it exists). Ready when every check passes.
 */
export function readinessProbe(checks: readonly ReadinessCheck[]): ReadinessProbe {
  return {
    async probe(): Promise<ReadinessReport> {
      const results = await Promise.all(checks.map(async ({ name, check }) => {
        try {
          await withTimeout(check(), CHECK_TIMEOUT_MS);
          return { name, ok: true };
        } catch (error) {
          return { name, ok: false, reason: error instanceof Error ? error.message : String(error) };
        }
      }));
      return { ready: results.every((result) => result.ok), checks: results };
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

/** The key store holding the data keys of stored files answers a query. */
export function keyStoreCheck(keys: Pick<KeyStore, 'ping'>): ReadinessCheck {
  return {
    name: 'key store',
    check: () => keys.ping(),
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
