import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { pino } from 'pino';
import { createAccount } from '../../src/accounts/accounts.js';
import type { HttpSettings } from '../../src/http/services.js';
import { startGateway } from '../../src/runtime/gateway.js';
import { startSimulator } from '../../src/sim/server.js';
import type { DatabaseEngine } from '../support/database-urls.js';
import { catalogueYaml, type Harness, type ModelSpec } from '../e2e/harness.js';

export interface ReliabilityHarness extends Harness {
  engine: DatabaseEngine['name'];
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
 * and one funded account. The same shape as the e2e harness, so its helpers (`send`,
 * `accountMoney`, `readSse`) work on it.
 */
export async function startReliabilityHarness(options: ReliabilityOptions): Promise<ReliabilityHarness> {
  const database = await options.engine.create();
  const sim = await startSimulator({ port: 0 });
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-reliability-'));
  const configPath = join(dir, 'catalogue.yaml');
  await writeFile(configPath, catalogueYaml(sim.url, options.models));
  const gateway = await startGateway({
    configPath,
    port: 0,
    databaseUrl: database.url,
    logger: pino({ level: 'silent' }),
    settings: { rateLimits: UNLIMITED, ...options.settings },
    watch: false,
  });
  const account = await createAccount(gateway.store, { name: 'reliability', creditsUsd: options.credits ?? '1000' });
  const baseUrl = `${gateway.url}/api/v1`;
  return {
    engine: options.engine.name,
    gateway,
    sim,
    baseUrl,
    key: account.key,
    accountId: account.accountId,
    workspaceId: account.workspaceId,
    configPath,
    client: new OpenAI({ baseURL: baseUrl, apiKey: account.key, maxRetries: 0 }),
    async close() {
      await gateway.close();
      await sim.close();
      await database.drop();
    },
  };
}
