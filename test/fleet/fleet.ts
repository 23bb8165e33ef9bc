import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import { startSimulator } from '../../src/sim/server.js';
import { catalogueYaml, type ModelSpec } from '../e2e/harness.js';
import { freshPostgresDatabase } from '../support/store-engines.js';

/** Three gateways in this process on one PostgreSQL database, one key store and one Redis, serving `acme/chat` from one simulator. */
/** What the fleet serves: one chat model. */
export const FLEET_MODELS: ModelSpec[] = [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }];

export interface Fleet {
  gateways: RunningGateway[];
  /** The PostgreSQL database they share, for a process of another kind (the admin command line). */
  databaseUrl: string;
  /** The catalogue file they all read, and how to write it again. */
  configPath: string;
  writeCatalogue(models: ModelSpec[]): Promise<void>;
  close(): Promise<void>;
}

export async function startFleet(options: { redisUrl: string; perKeyPerMinute: number; perAddressPerMinute?: number; recovery?: Partial<RecoverySettings> }): Promise<Fleet> {
  const sim = await startSimulator({ port: 0 });
  const database = await freshPostgresDatabase();
  const keyStore = await freshPostgresDatabase();
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-fleet-'));
  const configPath = join(dir, 'catalogue.yaml');
  const writeCatalogue = (models: ModelSpec[]) => writeFile(configPath, catalogueYaml(sim.url, models, {
    settings: { rate_limits: { per_key_per_minute: options.perKeyPerMinute, ...(options.perAddressPerMinute !== undefined && { per_address_per_minute: options.perAddressPerMinute }) } },
  }));
  await writeCatalogue(FLEET_MODELS);
  // every instance seals with the one master key the fleet shares
  const env = { ...process.env, SWITCHYARD_MASTER_KEY: Buffer.alloc(32, 7).toString('base64') };
  const gateways: RunningGateway[] = [];
  for (let index = 0; index < 3; index += 1) {
    gateways.push(await startGateway({
      configPath, port: 0, databaseUrl: database.url, keyStoreUrl: keyStore.url, redisUrl: options.redisUrl,
      logger: pino({ level: 'silent' }), watch: false, env, ...(options.recovery && { recovery: options.recovery }),
    }));
  }
  return {
    gateways,
    databaseUrl: database.url,
    configPath,
    writeCatalogue,
    async close() {
      for (const gateway of gateways) await gateway.close();
      await sim.close();
      await database.drop();
      await keyStore.drop();
    },
  };
}
