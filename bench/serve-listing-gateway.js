/**
 * Benchmark service: the gateway over a generated catalogue of BENCH_LISTING_MODELS models × 3
 * endpoints (default 2,000), for the catalogue reads. Address rate limits are raised out of reach;
 * the limiter still runs on every request.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { startGateway } from '../dist/runtime/gateway.js';
import { listingCatalogueYaml } from './listing-catalogue.js';
import { announce, serveControl } from './service-channel.js';

const models = Number(process.env.BENCH_LISTING_MODELS ?? 2_000);
const dir = await mkdtemp(join(tmpdir(), 'switchyard-bench-listing-'));
const configPath = join(dir, 'catalogue.yaml');
await writeFile(configPath, listingCatalogueYaml(models));
const unlimited = Number.MAX_SAFE_INTEGER;
const gateway = await startGateway({
  configPath,
  port: 0,
  databaseUrl: `sqlite:${join(dir, 'bench.db')}`,
  logger: pino({ level: 'silent' }),
  settings: { rateLimits: { perKeyPerMinute: unlimited, perAddressPerMinute: unlimited } },
  watch: false,
});
serveControl(async () => {
  await gateway.close();
  await rm(dir, { recursive: true, force: true });
});
announce({ url: gateway.url, models, pid: process.pid });
