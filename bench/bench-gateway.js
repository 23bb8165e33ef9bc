/**
 * The gateway as the benchmark services run it: the catalogue YAML written to a temporary folder,
 * a SQLite file beside it (WAL mode, as in production), a silent logger, and rate limits raised out
 * of reach (the limiter still runs on every request). `remove()` closes it and deletes the folder.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { createAccount, createKey } from '../dist/accounts/accounts.js';
import { CLI_CHANGE } from '../dist/accounts/audit.js';
import { setSpendLimit } from '../dist/accounts/spend-limits.js';
import { parseUsd } from '../dist/billing/money.js';
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

/** A spend limit far out of reach: every scope is checked on every hold, none ever refuses. */
const OUT_OF_REACH_USD = '1000000000';

/**
 * A funded account whose key spends under a limit on every scope (the key monthly, its workspace
 * weekly, the account daily), all far out of reach, as the full path of a real deployment checks
 * them; returns that key.
 */
export async function limitedAccount(store, name) {
  const { accountId, workspaceId } = await createAccount(store, { name, creditsUsd: OUT_OF_REACH_USD });
  const limit = (reset) => ({ limit: parseUsd(OUT_OF_REACH_USD), reset });
  await setSpendLimit(store, { scope: 'account', accountId }, limit('daily'), CLI_CHANGE);
  await setSpendLimit(store, { scope: 'workspace', workspaceId }, limit('weekly'), CLI_CHANGE);
  const { key } = await createKey(store, { accountId, workspaceId, name: 'bench', limitUsd: OUT_OF_REACH_USD, limitReset: 'monthly' });
  return key;
}
