import type { FastifyInstance } from 'fastify';
import { CompiledQuery } from 'kysely';
import type { Logger } from 'pino';
import { readCatalogueFile } from '../catalogue/loader.js';
import { formatProblem } from '../catalogue/problem-list.js';
import type { CatalogueResult } from '../catalogue/catalogue-schema.js';
import { parseDatabaseUrl } from '../store/database-url.js';
import { openStore, type Store } from '../store/store.js';
import type { PostgresTimeouts } from '../store/postgres-engine.js';
import type { Redis } from 'ioredis';
import { errorCause, redactedUrl, StartupError } from './startup-error.js';

type ValidConfig = Extract<CatalogueResult, { ok: true }>;

/** The config file, read and valid, with its text; otherwise why not, naming `--config`. */
export async function loadConfigFile(path: string): Promise<{ config: ValidConfig; text: string }> {
  const { text, result } = await readCatalogueFile(path);
  if (!result.ok) throw new StartupError('--config', problemsSummary(path, result.problems.map(formatProblem)));
  return { config: result, text: text ?? '' };
}

/** The first problem, where it is (problems of an unreadable or unparsable file start with its name). */
function problemsSummary(path: string, problems: string[]): string {
  const first = problems[0] ?? 'invalid';
  const where = first.startsWith(path) ? first : `${path}: ${first}`;
  const more = problems.length > 1 ? ` (and ${problems.length - 1} more; \`switchyard catalogue check ${path}\` lists them all)` : '';
  return `${where}${more}`;
}

/** The store at `url`, migrated; a bad URL or an unreachable server names `--database`. */
export async function openDatabase(url: string, poolSize: number, timeouts?: PostgresTimeouts): Promise<Store> {
  try {
    parseDatabaseUrl(url);
  } catch (error) {
    throw new StartupError('--database', errorCause(error));
  }
  try {
    return await openStore(url, { poolSize, checkpointThread: true, ...(timeouts && { timeouts }) });
  } catch (error) {
    throw new StartupError('--database', `cannot open ${redactedUrl(url)}: ${errorCause(error)}`);
  }
}

const AUTOVACUUM_QUERY = CompiledQuery.raw("SELECT current_setting('autovacuum') AS autovacuum") as CompiledQuery<{ autovacuum: string }>;

/**
 * Warns when the PostgreSQL server runs without autovacuum (its default is on). Every hold and
 * settlement leaves dead rows in the ledger's tables (`generations`, `accounts`, `spend_usage`), and
 * without it they pile up until the ledger's reads slow down request after request. A setting that
 * cannot be read changes nothing: the start goes on.
 */
export async function warnWithoutAutovacuum(store: Store, logger: Pick<Logger, 'warn'>): Promise<void> {
  if (store.engine !== 'postgres') return;
  let setting: string | undefined;
  try {
    setting = (await store.db.executeQuery(AUTOVACUUM_QUERY)).rows[0]?.autovacuum;
  } catch {
    return;
  }
  if (setting === 'off') {
    logger.warn('PostgreSQL runs with autovacuum off: the rows every hold and settlement leaves behind pile up in the ledger\'s tables and slow it down; turn it on, or VACUUM them often');
  }
}

/** How long the first connection to Redis may take at start-up. */
const REDIS_CONNECT_TIMEOUT_MS = 5_000;

/**
 * Connects to Redis (`--redis`, `redis://` or `rediss://`): a malformed URL or a server that does
 * not answer refuses the start, naming the option. Once running, a lost connection is retried for
 * good, commands fail at once rather than queue (the rate limiter falls back meanwhile).
 */
export async function openRedis(url: string): Promise<Redis> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new StartupError('--redis', `not a URL: use redis://host:port or rediss://host:port`);
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw new StartupError('--redis', `unsupported URL ${redactedUrl(url)}: use redis://host:port or rediss://host:port`);
  // loaded only for a fleet: a single process never holds the client
  const { Redis } = await import('ioredis');
  const redis = new Redis(url, { lazyConnect: true, enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: REDIS_CONNECT_TIMEOUT_MS });
  // a dropped connection is retried on its own; unheard, its error event would end the process
  let cause: unknown;
  redis.on('error', (error) => {
    cause ??= error;
  });
  try {
    await redis.connect();
    await redis.ping();
  } catch (error) {
    redis.disconnect();
    throw new StartupError('--redis', `cannot connect to ${redactedUrl(url)}: ${errorCause(cause ?? error)}`);
  }
  return redis;
}

/** Starts listening; an address in use or not this machine's names `--port` or `--host`. */
export async function listen(app: FastifyInstance, host: string, port: number): Promise<void> {
  try {
    await app.listen({ host, port });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new StartupError('--port', `${host}:${port} is already in use`);
    if (code === 'EACCES') throw new StartupError('--port', `not allowed to listen on ${host}:${port} (EACCES)`);
    throw new StartupError('--host', `cannot listen on ${host}:${port}: ${errorCause(error)}`);
  }
}
