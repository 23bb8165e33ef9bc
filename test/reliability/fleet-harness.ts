import { randomBytes } from 'node:crypto';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { pino } from 'pino';
import { createAccount } from '../../src/accounts/accounts.js';
import type { HttpSettings } from '../../src/http/services.js';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';
import { startSimulator } from '../../src/sim/server.js';
import { catalogueYaml, type Harness, type ModelSpec } from '../e2e/harness.js';
import type { FleetShape, TestDatabase } from '../support/database-urls.js';
import { freshPostgresDatabase } from '../support/store-engines.js';

/** A harness over one gateway or several: `gateway` is the first, `gateways` all of them. */
export interface DeployedHarness extends Harness {
  gateways: RunningGateway[];
}

export interface FleetHarnessOptions {
  fleet: FleetShape;
  /** The database every instance opens. */
  database: TestDatabase;
  models: ModelSpec[];
  credits: string;
  settings: Partial<HttpSettings>;
}

/** Calls each instance in turn: every call answers the next one's address. */
function rotation(gateways: readonly RunningGateway[]): () => string {
  let turn = 0;
  return () => {
    const gateway = gateways[turn % gateways.length] as RunningGateway;
    turn += 1;
    return gateway.url;
  };
}

/**
 * `fleet.instances` gateways in this process on one database, one key store (a PostgreSQL schema of
 * its own) and one Redis, sealing with one master key, behind one simulator; the test account is
 * made in the shared database. `baseUrl` names the next instance each time it is read, so whatever
 * a suite sends through it (`send`, a fetch of `harness.baseUrl`, the official client) goes to the
 * instances in turn, and a record is usually read back through another instance than the one that
 * wrote it. `gateway` is the first instance: its store is the shared database.
 */
export async function startFleetHarness(options: FleetHarnessOptions): Promise<DeployedHarness> {
  const closers: Array<() => Promise<void>> = [async () => options.database.drop()];
  const closeAll = async (): Promise<void> => {
    for (const close of closers.splice(0).reverse()) await close();
  };
  try {
    const sim = await startSimulator({ port: 0 });
    closers.push(() => sim.close());
    const keyStore = await freshPostgresDatabase();
    closers.push(() => keyStore.drop());
    const configPath = join(await mkdtemp(join(tmpdir(), 'switchyard-fleet-reliability-')), 'catalogue.yaml');
    await writeFile(configPath, catalogueYaml(sim.url, options.models));
    const env = { ...process.env, SWITCHYARD_MASTER_KEY: randomBytes(32).toString('base64') };
    const gateways: RunningGateway[] = [];
    for (let index = 0; index < options.fleet.instances; index += 1) {
      const gateway = await startGateway({
        configPath, port: 0, databaseUrl: options.database.url, keyStoreUrl: keyStore.url, redisUrl: options.fleet.redisUrl,
        logger: pino({ level: 'silent' }), watch: false, env, settings: options.settings,
      });
      closers.push(() => gateway.close());
      gateways.push(gateway);
    }
    const [first] = gateways;
    if (!first) throw new Error('a fleet of no instances');
    const account = await createAccount(first.store, { name: 'fleet reliability', creditsUsd: options.credits });
    const next = rotation(gateways);
    const onNextInstance: typeof fetch = (input, init) => {
      const url = new URL(input instanceof Request ? input.url : input);
      const target = new URL(`${url.pathname}${url.search}`, next());
      return input instanceof Request ? fetch(new Request(target, input), init) : fetch(target, init);
    };
    return {
      gateway: first,
      gateways,
      sim,
      get baseUrl() {
        return `${next()}/api/v1`;
      },
      key: account.key,
      accountId: account.accountId,
      workspaceId: account.workspaceId,
      configPath,
      client: new OpenAI({ baseURL: `${first.url}/api/v1`, apiKey: account.key, maxRetries: 0, fetch: onNextInstance }),
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
