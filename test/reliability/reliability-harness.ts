import { createKey } from '../../src/accounts/accounts.js';
import type { HttpSettings } from '../../src/http/services.js';
import type { DatabaseEngine } from '../support/database-urls.js';
import { startHarness, type Harness, type ModelSpec } from '../e2e/harness.js';

export interface ReliabilityHarness extends Harness {
  engine: DatabaseEngine['name'];
  /** A management key of the test account, for the key management routes. */
  managementKey: string;
}

export interface ReliabilityOptions {
  engine: DatabaseEngine;
  models: ModelSpec[];
  /** Credits of the test account, USD decimal string (default "1000"). */
  credits?: string;
  settings?: Partial<HttpSettings>;
}

/**
 * Rate limits far above anything a suite sends, so a fuzz run measures the routes and never the
 * limiter (which answers 429 before a body is read).
 */
const UNLIMITED = { perKeyPerMinute: 1_000_000, perAddressPerMinute: 1_000_000 };

/**
 * A gateway on an ephemeral port over a fresh database of `engine` (in-memory SQLite, or a schema
 * of its own on PostgreSQL), the bundled simulator behind every provider of the test catalogue,
 * and one funded account with an inference key and a management key. The same shape as the e2e harness, so its helpers (`send`,
 * `accountMoney`, `readSse`) work on it.
 */
export async function startReliabilityHarness(options: ReliabilityOptions): Promise<ReliabilityHarness> {
  const database = await options.engine.create();
  const harness = await startHarness({
    models: options.models,
    credits: options.credits ?? '1000',
    databaseUrl: database.url,
    settings: { rateLimits: UNLIMITED, ...options.settings },
  });
  const management = await createKey(harness.gateway.store, { accountId: harness.accountId, management: true, name: 'fuzz provisioning' });
  return {
    ...harness,
    engine: options.engine.name,
    managementKey: management.key,
    async close() {
      await harness.close();
      await database.drop();
    },
  };
}
