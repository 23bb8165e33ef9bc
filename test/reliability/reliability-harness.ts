import { createKey } from '../../src/accounts/accounts.js';
import type { HttpSettings } from '../../src/http/services.js';
import type { DatabaseEngine } from '../support/database-urls.js';
import { startHarness, type ModelSpec } from '../e2e/harness.js';
import { startFleetHarness, type DeployedHarness } from './fleet-harness.js';

export interface ReliabilityHarness extends DeployedHarness {
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

/** One gateway over a fresh database of `engine`; closing it drops the database. */
async function startSingle(engine: DatabaseEngine, options: { models: ModelSpec[]; credits: string; settings: Partial<HttpSettings> }): Promise<DeployedHarness> {
  const database = await engine.create();
  const harness = await startHarness({ ...options, databaseUrl: database.url });
  const close = harness.close;
  return Object.assign(harness, {
    gateways: [harness.gateway],
    async close() {
      await close();
      await database.drop();
    },
  });
}

/**
 * A gateway on an ephemeral port over a fresh database of `engine` (in-memory SQLite, or a schema
 * of its own on PostgreSQL) — or, on the fleet, three gateways sharing one such PostgreSQL schema,
 * a key store and a Redis, with `baseUrl` naming the next instance at every read (fleet-harness.ts)
 * — the bundled simulator behind every provider of the test catalogue, and one funded account with
 * an inference key and a management key. The same shape as the e2e harness, so its helpers (`send`,
 * `accountMoney`, `readSse`) work on it; `gateways` lists every instance, for checks that hook or
 * read one instance's own state.
 */
export async function startReliabilityHarness(options: ReliabilityOptions): Promise<ReliabilityHarness> {
  const { engine } = options;
  const shared = { models: options.models, credits: options.credits ?? '1000', settings: { rateLimits: UNLIMITED, ...options.settings } };
  const harness = engine.fleet
    ? await startFleetHarness({ ...shared, fleet: engine.fleet, database: await engine.create() })
    : await startSingle(engine, shared);
  try {
    const management = await createKey(harness.gateway.store, { accountId: harness.accountId, management: true, name: 'fuzz provisioning' });
    // assigned, not spread: the fleet's `baseUrl` is a getter that must stay one
    return Object.assign(harness, { engine: engine.name, managementKey: management.key });
  } catch (error) {
    await harness.close();
    throw error;
  }
}
