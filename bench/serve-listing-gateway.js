/**
 * Benchmark service: the gateway over a generated catalogue of BENCH_LISTING_MODELS models × 3
 * endpoints (default 2,000), for the catalogue reads. Address rate limits are raised out of reach;
 * the limiter still runs on every request.
 */
import { startBenchGateway } from './bench-gateway.js';
import { listingCatalogueYaml } from './listing-catalogue.js';
import { announce, serveControl } from './service-channel.js';

const models = Number(process.env.BENCH_LISTING_MODELS ?? 2_000);
const { gateway, remove } = await startBenchGateway(listingCatalogueYaml(models), { folderPrefix: 'switchyard-bench-listing-', watch: false });
serveControl(remove);
announce({ url: gateway.url, models, pid: process.pid });
