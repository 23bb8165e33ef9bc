import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { CatalogueStore } from '../catalogue/catalogue-store.js';
import type { ReloadTrigger } from '../catalogue/config-reloader.js';
import { parseCatalogueText } from '../catalogue/loader.js';
import { missingCredentials } from '../catalogue/missing-credentials.js';
import { formatProblem } from '../catalogue/problem-list.js';
import { resolveSettings, type Settings, type SettingsPatch } from '../settings/settings-table.js';
import { demoCatalogueYaml } from '../catalogue/demo.js';
import { prepareListing } from '../catalogue/listing/listing-snapshot.js';
import type { CatalogueResult } from '../catalogue/catalogue-schema.js';
import { buildApp } from '../http/app.js';
import { registerWebPages } from '../web/web-pages.js';
import { httpSettingsFrom, type HttpSettings, type Services } from '../http/services.js';
import type { RunningSimulator } from '../sim/server.js';
import { loadTokenVocabulary } from '../core/o200k-vocabulary.js';
import type { Store } from '../store/store.js';
import { transportSettingsFrom } from '../upstream/transport.js';
import { ensureDemoAccess, type DemoAccess } from './demo.js';
import { gatewayLogger } from './gateway-logger.js';
import { BackgroundTasks } from '../cluster/background.js';
import { buildServices, type FiguresOptions } from './build-services.js';
import { buildProber, capabilityCheckTasks, proberSettingsFrom } from './capability-checks.js';
import type { CheckOutcome } from '../prober/prober.js';
import { startConfigReload } from './config-reload.js';
import type { RecoverySettings } from './recovery-settings.js';
import { logMissingCredentials } from './reload-log.js';
import { readEnvironmentSettings } from './settings-environment.js';
import { Rollback } from './rollback.js';
import { listen, loadConfigFile, openDatabase, openRedis, warnWithoutAutovacuum } from './startup-steps.js';
import { startKeyStore } from './key-store-startup.js';

/** Time after the drain grace for restart 503s to reach their callers before connections are closed. */
const FORCE_CLOSE_MARGIN_MS = 1_000;

export interface GatewayOptions {
  /** Catalogue YAML; without one the embedded demo runs (bundled simulator, demo account). */
  configPath?: string;
  host?: string;
  port?: number;
  databaseUrl?: string;
  /** Redis shared by every instance (`--redis`): exact rate limits across the fleet. */
  redisUrl?: string;
  /** Where the data keys of stored files live (`--key-store`; default beside the database, see files/key-store-location.ts). */
  keyStoreUrl?: string;
  /** Where the demo key is written (demo mode only). */
  demoKeyFile?: string;
  logger?: Logger;
  /** Where `SWITCHYARD_…` settings and provider credentials are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Beat the config file's and the environment's settings (the way flags do). */
  settings?: Partial<HttpSettings>;
  /** Reload the catalogue when its file changes (default true). */
  watch?: boolean;
  /** Heartbeat, reaping of gone instances and checkpoint cadence (see runtime/recovery-settings.ts). */
  recovery?: Partial<RecoverySettings>;
  /** The measured figures' clock and sync interval (see runtime/build-services.ts). */
  figures?: FiguresOptions;
  /** Runs once everything is built, just before the port opens (`switchyard serve` gives back the start-up's memory there). */
  beforeListen?: () => Promise<void>;
}

/** What the capability checks of a running gateway offer beside their background task. */
export interface GatewayChecks {
  /** Runs every check now (what `switchyard probe` does) and resolves with the outcomes. */
  runAll(): Promise<CheckOutcome[]>;
  /** Reads the verdicts stored since the last read, as the instance does every minute. */
  refresh(): Promise<void>;
}

export interface RunningGateway {
  url: string;
  app: FastifyInstance;
  services: Services;
  /** This instance's id, stamped on its holds and pending generations. */
  instanceId: string;
  /** The demo account's key, in demo mode. */
  demoKey?: DemoAccess;
  simulator?: RunningSimulator;
  store: Store;
  checks: GatewayChecks;
  /** Reads the config file again (what SIGHUP does); resolves once the outcome is logged. */
  reload(trigger?: ReloadTrigger): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/switchyard.db';

/**
 * Builds every service, opens the store, loads the catalogue and starts listening. What cannot start
 * is a StartupError naming the option at fault, and whatever had been opened is closed again.
 */
export async function startGateway(options: GatewayOptions = {}): Promise<RunningGateway> {
  const rollback = new Rollback();
  try {
    return await openGateway(options, rollback);
  } catch (error) {
    await rollback.run();
    throw error;
  }
}

async function openGateway(options: GatewayOptions, rollback: Rollback): Promise<RunningGateway> {
  const logger = options.logger ?? gatewayLogger(process.env.LOG_LEVEL);
  const env = options.env ?? process.env;
  const environment = readEnvironmentSettings(env);
  const file = options.configPath ? await loadConfigFile(options.configPath) : undefined;
  const resolve = (written: SettingsPatch) => resolveSettings(written, environment);
  const settings = resolve(file?.config.settings ?? {});
  const simulator = file ? undefined : await startDemoSimulator();
  if (simulator) rollback.push(() => simulator.close());
  const catalogue = new CatalogueStore(file?.config.catalogue ?? demoCatalogue(simulator?.url ?? ''));
  logMissingCredentials(logger, missingCredentials(catalogue.current(), env));
  const databaseUrl = options.databaseUrl ?? DEFAULT_DATABASE_URL;
  const store = await openDatabase(databaseUrl, settings['database.pool_size'], {
    connectMs: settings['database.connect_timeout_ms'],
    statementMs: settings['database.statement_timeout_ms'],
  });
  rollback.push(() => store.close());
  await warnWithoutAutovacuum(store, logger);
  const redis = options.redisUrl === undefined ? undefined : await openRedis(options.redisUrl);
  if (redis) rollback.push(async () => redis.disconnect());
  const keyStore = await startKeyStore({ ...(options.keyStoreUrl !== undefined && { url: options.keyStoreUrl }), databaseUrl, env, poolSize: settings['database.pool_size'], logger });
  rollback.push(() => keyStore.close());
  const http = { ...httpSettingsFrom(settings), ...options.settings };
  const built = buildServices({
    store, catalogue, logger, settings: http, upstream: transportSettingsFrom(settings), ...(options.recovery && { recovery: options.recovery }),
    ...(options.figures && { figures: options.figures }),
    files: { keyStore, maxUploadBytes: settings['files.max_upload_bytes'] },
    ...(redis && { redis }),
  });
  rollback.push(() => built.close());
  const { services } = built;
  const demoKey = simulator ? await ensureDemoAccess(store, services.keys, options.demoKeyFile ?? './data/demo-key.txt') : undefined;
  const background = new BackgroundTasks(logger);
  const prober = buildProber({ store, services, logger, attempts: built.metrics });
  await background.start([...built.tasks, ...capabilityCheckTasks(prober, { catalogue, settings: proberSettingsFrom(settings), logger })]);
  rollback.push(() => background.stop());
  const applyLive = (next: Settings) => built.setRateLimits({ ...httpSettingsFrom(next), ...options.settings }.rateLimits);
  const configReload = startConfigReload(
    { file: options.configPath, initialText: file?.text, settings, watch: options.watch !== false },
    {
      catalogue, logger, env, resolve, applyLive, prepare: prepareListing,
      observe: (report) => {
        built.metrics.catalogueReloaded(report.outcome);
        // the other instances read their files again; what they were told of is not told on
        if (report.outcome === 'reloaded' && report.trigger !== 'another instance') built.signals.publish('catalogue');
      },
    },
  );
  built.signals.on('catalogue', () => void configReload.reload('another instance'));
  rollback.push(() => configReload.stop());
  await prepareListing(catalogue.current());
  loadTokenVocabulary();
  const app = await buildApp(services);
  await registerWebPages(app, services);
  rollback.push(() => app.close());
  if (options.beforeListen) {
    // the routes' schemas and serializers are compiled by `ready`: before, so they are built by then
    await app.ready();
    await options.beforeListen();
  }
  await listen(app, options.host ?? '127.0.0.1', options.port ?? 8080);
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port ?? 8080;
  const running: RunningGateway = {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    app,
    services,
    instanceId: built.instance.id,
    store,
    checks: {
      runAll: () => prober.run(catalogue.current(), { signal: services.restart }),
      refresh: () => prober.refresh(),
    },
    reload: (trigger = 'SIGHUP') => configReload.reload(trigger),
    async close() {
      // The restart drain: from now on new requests, on new connections or kept-alive ones, get the
      // restart 503, while those in flight may finish within the grace period and then end with the
      // restart 503. The server keeps listening until none is in flight or the grace has passed; a
      // moment after the grace, connections still open (one that never sent a request, a stuck
      // socket) are closed so the drain always ends.
      app.drain.begin();
      // batches stop sending too; what they have in flight gets the same grace
      const batchesStopped = built.stopBatches();
      logger.info({ graceMs: http.drainGraceMs }, `draining: new requests get the restart 503; requests in flight have ${http.drainGraceMs} ms to finish`);
      configReload.stop();
      const grace = setTimeout(() => built.restart(), http.drainGraceMs);
      const force = setTimeout(() => app.server.closeAllConnections(), http.drainGraceMs + FORCE_CLOSE_MARGIN_MS);
      await app.drain.settled(http.drainGraceMs);
      await app.close();
      await batchesStopped;
      clearTimeout(grace);
      clearTimeout(force);
      // the heartbeat runs while requests drain, so no other instance takes them for abandoned
      await background.stop();
      await built.close();
      await store.close();
      await keyStore.close();
      redis?.disconnect();
      await simulator?.close();
      logger.info('drained and stopped');
    },
  };
  if (demoKey) running.demoKey = demoKey;
  if (simulator) running.simulator = simulator;
  return running;
}

/**
 * The demo's simulated providers, started without a config file. Loaded only then: the simulator
 * and what it needs (a tokenizer of its own, among others) stay out of a configured gateway's memory.
 */
export async function startDemoSimulator(): Promise<RunningSimulator> {
  const { startSimulator } = await import('../sim/server.js');
  return startSimulator({ port: 0 });
}

export function demoCatalogue(simulatorUrl: string) {
  const result: CatalogueResult = parseCatalogueText(demoCatalogueYaml(simulatorUrl), 'demo catalogue');
  if (result.ok) return result.catalogue;
  throw new Error(`the demo catalogue has problems:\n${result.problems.map(formatProblem).join('\n')}`);
}
