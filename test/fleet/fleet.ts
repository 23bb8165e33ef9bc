import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import { startSimulator } from '../../src/sim/server.js';
import { catalogueYaml } from '../e2e/harness.js';
import { freshPostgresDatabase } from '../support/store-engines.js';

/** Three gateways in this process on one PostgreSQL database, one key store and one Redis, serving `acme/chat` from one simulator. */
export interface Fleet {
  gateways: RunningGateway[];
  close(): Promise<void>;
}

export async function startFleet(options: { redisUrl: string; perKeyPerMinute: number; recovery?: Partial<RecoverySettings> }): Promise<Fleet> {
  const sim = await startSimulator({ port: 0 });
  const database = await freshPostgresDatabase();
  const keyStore = await freshPostgresDatabase();
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-fleet-'));
  const configPath = join(dir, 'catalogue.yaml');
  await writeFile(configPath, catalogueYaml(sim.url, [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }], {
    settings: { rate_limits: { per_key_per_minute: options.perKeyPerMinute } },
  }));
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
    async close() {
      for (const gateway of gateways) await gateway.close();
      await sim.close();
      await database.drop();
      await keyStore.drop();
    },
  };
}
