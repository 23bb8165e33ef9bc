import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { CatalogueStore } from '../catalogue/catalogue-store.js';
import { loadCatalogueFile, parseCatalogueText } from '../catalogue/loader.js';
import { formatProblem } from '../catalogue/problem-list.js';
import { watchCatalogue } from '../catalogue/watcher.js';
import { demoCatalogueYaml } from '../catalogue/demo.js';
import type { CatalogueResult } from '../catalogue/catalogue-schema.js';
import { buildApp } from '../http/app.js';
import { DEFAULT_HTTP_SETTINGS, type HttpSettings, type Services } from '../http/services.js';
import { startSimulator, type RunningSimulator } from '../sim/server.js';
import { openStore, type Store } from '../store/store.js';
import { ensureDemoKey } from './demo.js';
import { gatewayLogger } from './gateway-logger.js';
import { BackgroundTasks } from './background.js';
import { buildServices } from './build-services.js';
import type { RecoverySettings } from './recovery-settings.js';

/** Time after the drain grace for restart 503s to reach their callers before connections are closed. */
const FORCE_CLOSE_MARGIN_MS = 1_000;

export interface GatewayOptions {
  /** Catalogue YAML; without one the embedded demo runs (bundled simulator, demo account). */
  configPath?: string;
  host?: string;
  port?: number;
  databaseUrl?: string;
  /** Where the demo key is written (demo mode only). */
  demoKeyFile?: string;
  logger?: Logger;
  settings?: Partial<HttpSettings>;
  /** Reload the catalogue when its file changes (default true). */
  watch?: boolean;
  /** Heartbeat, reaping of gone instances and checkpoint cadence (see runtime/recovery-settings.ts). */
  recovery?: Partial<RecoverySettings>;
}

export interface RunningGateway {
  url: string;
  app: FastifyInstance;
  services: Services;
  /** This instance's id, stamped on its holds and pending generations. */
  instanceId: string;
  /** The demo account's key, in demo mode. */
  demoKey?: { key: string; created: boolean };
  simulator?: RunningSimulator;
  store: Store;
  close(): Promise<void>;
}

export const DEFAULT_DATABASE_URL = 'sqlite:./data/switchyard.db';

/** Builds every service, opens the store, loads the catalogue and starts listening. */
export async function startGateway(options: GatewayOptions = {}): Promise<RunningGateway> {
  const logger = options.logger ?? gatewayLogger(process.env.LOG_LEVEL);
  const simulator = options.configPath ? undefined : await startSimulator({ port: 0 });
  const loaded = options.configPath
    ? await loadCatalogueFile(options.configPath)
    : parseCatalogueText(demoCatalogueYaml(simulator?.url ?? ''), 'demo catalogue');
  const catalogue = new CatalogueStore(requireCatalogue(loaded, options.configPath ?? 'demo catalogue'));
  const store = await openStore(options.databaseUrl ?? DEFAULT_DATABASE_URL);
  const settings = { ...DEFAULT_HTTP_SETTINGS, ...options.settings };
  const built = buildServices({ store, catalogue, logger, settings, ...(options.recovery && { recovery: options.recovery }) });
  const { services } = built;
  const demoKey = simulator ? await ensureDemoKey(store, services.keys, options.demoKeyFile ?? './data/demo-key.txt') : undefined;
  const background = new BackgroundTasks(logger);
  await background.start(built.tasks);
  const stopWatching = options.configPath && options.watch !== false
    ? watchCatalogue(options.configPath, catalogue, { info: (m) => logger.info(m), error: (m) => logger.error(m) }, {
      onReload: (outcome) => built.metrics.catalogueReloaded(outcome),
    })
    : () => undefined;
  const app = await buildApp(services);
  await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 8080 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : options.port ?? 8080;
  const running: RunningGateway = {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    app,
    services,
    instanceId: built.instance.id,
    store,
    async close() {
      // The restart drain: from now on new requests, on new connections or kept-alive ones, get the
      // restart 503, while those in flight may finish within the grace period and then end with the
      // restart 503. The server keeps listening until none is in flight or the grace has passed; a
      // moment after the grace, connections still open (one that never sent a request, a stuck
      // socket) are closed so the drain always ends.
      app.drain.begin();
      stopWatching();
      const grace = setTimeout(() => built.restart(), settings.drainGraceMs);
      const force = setTimeout(() => app.server.closeAllConnections(), settings.drainGraceMs + FORCE_CLOSE_MARGIN_MS);
      await app.drain.settled(settings.drainGraceMs);
      await app.close();
      clearTimeout(grace);
      clearTimeout(force);
      // the heartbeat runs while requests drain, so no other instance takes them for abandoned
      await background.stop();
      await built.close();
      await store.close();
      await simulator?.close();
    },
  };
  if (demoKey) running.demoKey = demoKey;
  if (simulator) running.simulator = simulator;
  return running;
}

function requireCatalogue(result: CatalogueResult, origin: string) {
  if (result.ok) return result.catalogue;
  throw new Error(`${origin} has problems:\n${result.problems.map(formatProblem).join('\n')}`);
}
