import type { Logger } from 'pino';
import type { KeyDirectory } from '../accounts/types.js';
import type { GenerationReader, Ledger } from '../billing/types.js';
import { DEFAULT_SETTINGS, type Settings } from '../settings/settings-table.js';
import type { CatalogueSource } from '../catalogue/source.js';
import type { InferenceExecutor } from '../inference/executor.js';
import type { InferenceServices } from '../inference/services.js';
import type { LiveEndpointState } from '../stats/endpoint-state.js';
import type { OverrunCounter } from '../stats/overrun-counter.js';
import type { RateLimiters } from './rate-limit.js';
import type { RequestMetrics } from './request-log.js';
import type { MetricsExposition, ReadinessProbe } from './operator-views.js';
import type { Store } from '../store/store.js';
import type { FileService } from '../files/file-service.js';
import type { BatchService } from '../batches/batch-service.js';

/** Everything the HTTP layer needs, built once at start-up (cli/serve) or by a test. */
export interface Services extends InferenceServices {
  catalogue: CatalogueSource;
  keys: KeyDirectory;
  ledger: Ledger;
  generations: GenerationReader;
  executor: InferenceExecutor;
  state: LiveEndpointState;
  overruns: OverrunCounter;
  logger: Logger;
  limiters: RateLimiters;
  /** This instance's metrics: every request and call reports to them, `GET /metrics` shows them. */
  metrics: RequestMetrics & MetricsExposition;
  /** The named checks `GET /readyz` runs. */
  readiness: ReadinessProbe;
  settings: HttpSettings;
  /** Aborted when a draining instance stops waiting for requests in flight; they end with a restart 503. */
  restart: AbortSignal;
  /** The database: the account, key and audit routes read and change it through src/accounts/. */
  store: Store;
  /** The accounts' stored files, sealed under data keys from the key store. */
  files: FileService;
  /** The accounts' batches; the runner beside it sends them. */
  batches: BatchService;
}

export interface HttpSettings {
  /** Interval of keep-alive comments while a stream is silent (spec: about 15 s). */
  keepAliveMs: number;
  /** Largest accepted request body in bytes. */
  bodyLimitBytes: number;
  /** Requests per minute per key (authenticated) and per address (unauthenticated). */
  rateLimits: { perKeyPerMinute: number; perAddressPerMinute: number };
  /** How long a draining instance lets requests in flight finish before ending them with a restart 503. */
  drainGraceMs: number;
  /** How long a connection may take to send a request's head (request line and headers). */
  headersTimeoutMs: number;
  /**
   * How long a request may take to arrive whole, head and body, from its first byte; at least
   * `headersTimeoutMs`. Only receiving is bounded: the answer, streamed or not, takes the time it needs.
   */
  requestTimeoutMs: number;
  /** How long a connection may stay open with no request after its last answer. */
  keepAliveTimeoutMs: number;
  /**
   * Addresses and CIDRs of reverse proxies whose `X-Forwarded-For` names the client; the address
   * limit counts that client. Empty: the connection's own address is the client's.
   */
  trustProxy: readonly string[];
}

/** The HTTP server's part of the operator settings. */
export function httpSettingsFrom(settings: Settings): HttpSettings {
  return {
    keepAliveMs: settings['server.keep_alive_comment_ms'],
    bodyLimitBytes: settings['server.body_limit_bytes'],
    rateLimits: {
      perKeyPerMinute: settings['rate_limits.per_key_per_minute'],
      perAddressPerMinute: settings['rate_limits.per_address_per_minute'],
    },
    drainGraceMs: settings['server.drain_grace_ms'],
    headersTimeoutMs: settings['server.headers_timeout_ms'],
    requestTimeoutMs: settings['server.request_timeout_ms'],
    keepAliveTimeoutMs: settings['server.keep_alive_timeout_ms'],
    trustProxy: settings.trust_proxy,
  };
}

export const DEFAULT_HTTP_SETTINGS: HttpSettings = httpSettingsFrom(DEFAULT_SETTINGS);
