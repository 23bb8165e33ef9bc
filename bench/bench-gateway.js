/**
 * The gateway as the benchmark services run it: the catalogue YAML written to a temporary folder,
 * a SQLite file beside it (WAL mode, as in production), a silent logger, and rate limits raised out
 * of reach (the limiter still runs on every request). `remove()` closes it and deletes the folder.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startGateway } from '../dist/runtime/gateway.js';

/**
 * BENCH_DATABASE_URL (a `postgres://` URL) runs it on PostgreSQL instead, BENCH_REDIS_URL with Redis;
 * the key store then lives in the same PostgreSQL server's database given by BENCH_KEY_STORE_URL, or
 * beside the temporary folder.
 */
export async function startBenchGateway(catalogueYaml, { folderPrefix, watch = true }) {
  const dir = await mkdtemp(join(tmpdir(), folderPrefix));
  const configPath = join(dir, 'catalogue.yaml');
  await writeFile(configPath, catalogueYaml);
  const unlimited = Number.MAX_SAFE_INTEGER;
  const gateway = await startGateway({
    configPath,
    port: 0,
    databaseUrl: process.env.BENCH_DATABASE_URL ?? `sqlite:${join(dir, 'bench.db')}`,
    keyStoreUrl: process.env.BENCH_KEY_STORE_URL ?? `sqlite:${join(dir, 'keys.db')}`,
    ...(process.env.BENCH_REDIS_URL && { redisUrl: process.env.BENCH_REDIS_URL }),
    logger: pino({ level: 'silent' }),
    settings: { rateLimits: { perKeyPerMinute: unlimited, perAddressPerMinute: unlimited } },
    watch,
  });
  return {
    gateway,
    async remove() {
      await gateway.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
