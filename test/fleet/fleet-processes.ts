import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import { startSimulator } from '../../src/sim/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { catalogueYaml, type ModelSpec } from '../e2e/harness.js';
import { exited, running, spawnGatewayProcess, type GatewayChild } from '../reliability/gateway-child.js';
import { freshPostgresDatabase } from '../support/store-engines.js';

/**
 * Three gateways (by default) as child processes on one database, one key store and one Redis,
 * sharing one master key, each reporting a host name of its own as if it ran on a machine of its
 * own: an instance killed is known to the others only by its stale heartbeat, as in a real fleet.
 */
export interface ProcessFleet {
  instances: GatewayChild[];
  /** Each instance's base URL (without `/api/v1`), in the order of `instances`. */
  urls: string[];
  /** The instances still running. */
  alive(): GatewayChild[];
  /** kill -9; resolves once the process is gone. */
  kill(instance: GatewayChild): Promise<void>;
  /** Kills whatever still runs and removes the catalogue file. */
  close(): Promise<void>;
}

export interface ProcessFleetOptions {
  /** The catalogue YAML every instance serves (see catalogueYaml in test/e2e/harness.ts). */
  catalogue: string;
  databaseUrl: string;
  keyStoreUrl: string;
  redisUrl: string;
  recovery: Partial<RecoverySettings>;
  size?: number;
}

export async function spawnProcessFleet(options: ProcessFleetOptions): Promise<ProcessFleet> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-fleet-processes-'));
  const configPath = join(dir, 'catalogue.yaml');
  await writeFile(configPath, options.catalogue);
  const env = { SWITCHYARD_MASTER_KEY: randomBytes(32).toString('base64') };
  const spawnOne = (index: number) => spawnGatewayProcess({
    configPath, databaseUrl: options.databaseUrl, keyStoreUrl: options.keyStoreUrl, redisUrl: options.redisUrl,
    recovery: options.recovery, env, hostName: `fleet-machine-${index}`,
  });
  const instances: GatewayChild[] = [];
  const close = async () => {
    for (const instance of instances) if (running(instance.child)) instance.child.kill('SIGKILL');
    await Promise.all(instances.map((instance) => exited(instance.child)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    // side by side: their migrations take turns on PostgreSQL's advisory lock
    const started = await Promise.allSettled(Array.from({ length: options.size ?? 3 }, (_, index) => spawnOne(index)));
    for (const one of started) if (one.status === 'fulfilled') instances.push(one.value);
    const failed = started.find((one) => one.status === 'rejected');
    if (failed) throw failed.reason;
  } catch (error) {
    await close();
    throw error;
  }
  return {
    instances,
    urls: instances.map((instance) => instance.url),
    alive: () => instances.filter((instance) => running(instance.child)),
    async kill(instance) {
      instance.child.kill('SIGKILL');
      await exited(instance.child);
    },
    close,
  };
}

/** A process fleet on fresh schemas of the test PostgreSQL, with its simulator and the test's own store. */
export interface FleetOnTestDatabase {
  fleet: ProcessFleet;
  /** The database the instances share, opened by the test (accounts, ledger readings). */
  store: Store;
  close(): Promise<void>;
}

/**
 * A simulator serving `models`, a fresh database and key store (schemas of their own on the test
 * PostgreSQL), and three instances on them and the Redis at `redisUrl`.
 */
export async function startFleetOnTestDatabase(options: {
  models: ModelSpec[];
  settings?: Record<string, unknown>;
  redisUrl: string;
  recovery: Partial<RecoverySettings>;
}): Promise<FleetOnTestDatabase> {
  const closers: Array<() => Promise<unknown>> = [];
  const close = async () => {
    for (const closing of closers.splice(0).reverse()) await closing();
  };
  try {
    const sim = await startSimulator({ port: 0 });
    closers.push(() => sim.close());
    const database = await freshPostgresDatabase();
    closers.push(() => database.drop());
    const keyStore = await freshPostgresDatabase();
    closers.push(() => keyStore.drop());
    const store = await openStore(database.url);
    closers.push(() => store.close());
    const fleet = await spawnProcessFleet({
      catalogue: catalogueYaml(sim.url, options.models, options.settings ? { settings: options.settings } : {}),
      databaseUrl: database.url, keyStoreUrl: keyStore.url, redisUrl: options.redisUrl, recovery: options.recovery,
    });
    closers.push(() => fleet.close());
    return { fleet, store, close };
  } catch (error) {
    await close();
    throw error;
  }
}
