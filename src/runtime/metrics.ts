import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { toUsdNumber } from '../billing/money.js';
import { SeriesCounter, SeriesHistogram } from './series-metrics.js';
import type { GatewayError } from '../core/errors.js';
import type { AttemptFailure, PlannedAttempt } from '../core/plan.js';
import type { EndedRequest, RequestMetrics } from '../http/request-log.js';
import type { MetricsExposition, ReadinessProbe } from '../http/operator-views.js';
import type { FleetSignal } from '../cluster/fleet-signals.js';
import type { ReloadReport } from './reload-log.js';
import type { CallObserver } from '../inference/observer.js';
import type { OverrunCounter } from '../stats/overrun-counter.js';

/** What a ledger write was: reserving credit, or closing a hold by charging or releasing it. */
export type LedgerWrite = 'hold' | 'settle' | 'release';

/** Which limit refused a request: its key's, or its client address's. */
export type RateLimitName = 'key' | 'address';


const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];
const FIRST_TOKEN_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30];
const LEDGER_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1];
const SIGNAL_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5];

/**
 * The metrics of one gateway instance, in a registry of its own (so several gateways in one process
 * never clash), with the process's default metrics beside them. It hears of each call's attempts and
 * streams as a `CallObserver`, of each finished request from the request log, and of ledger writes,
 * rate-limit refusals and catalogue reloads from the services built around it.
 */
export class GatewayMetrics implements RequestMetrics, MetricsExposition, CallObserver {
  readonly #registry = new Registry();
  readonly #requests = this.#seriesCounter('switchyard_http_requests_total', 'HTTP requests answered, by route pattern and status', ['route', 'status']);
  readonly #duration = this.#seriesHistogram('switchyard_http_request_duration_seconds', 'Time from a request\'s arrival to the end of its answer', ['route', 'provider'], SECONDS_BUCKETS);
  readonly #firstToken = this.#seriesHistogram('switchyard_time_to_first_token_seconds', 'Time from routing a streamed request to its first content', ['route', 'provider'], FIRST_TOKEN_BUCKETS);
  readonly #attempts = this.#seriesCounter('switchyard_upstream_attempts_total', 'Upstream calls made, by provider and endpoint', ['provider', 'endpoint']);
  readonly #failures = this.#seriesCounter('switchyard_upstream_failures_total', 'Upstream calls that failed before an answer committed, by provider, endpoint and kind of failure', ['provider', 'endpoint', 'reason']);
  readonly #refusals = this.#seriesCounter('switchyard_refusals_total', 'Requests refused before any upstream call (no route, unknown model, no credit, …), by error code', ['code']);
  readonly #openStreams = this.#openCount('switchyard_open_streams', 'Streamed answers (events or audio) open to callers');
  readonly #openHolds = this.#openCount('switchyard_open_holds', 'Credit holds taken by requests in flight on this instance');
  readonly #ledgerWrites = this.#seriesHistogram('switchyard_ledger_write_duration_seconds', 'Time a ledger write took: a hold, or a settlement or release closing one', ['operation'], LEDGER_BUCKETS);
  readonly #rateLimited = this.#seriesCounter('switchyard_rate_limited_total', 'Requests refused with 429 by a rate limit, by limit', ['limit']);
  readonly #reloads = this.#counter('switchyard_catalogue_reloads_total', 'Catalogue reloads, by outcome', ['outcome']);
  readonly #fallbackLimits = this.#gauge('switchyard_rate_limit_fallback', '1 while Redis cannot be reached and this instance enforces its share (limit ÷ live instances) of each rate limit on its own');
  readonly #liveInstances = this.#gauge('switchyard_live_instances', 'Instances on this database whose heartbeat is fresh, this one included');
  readonly #signalsHeard = this.#gauge('switchyard_fleet_signals_listening', '1 while this instance hears the fleet\'s signals (subscribed on Redis, or listening on PostgreSQL); 0 while its key cache reads the database on every turn');
  readonly #signalDelay = this.#histogram('switchyard_fleet_signal_delay_seconds', 'Time from another instance sending a signal (its clock) to this one hearing it, by signal', ['signal'], SIGNAL_BUCKETS);
  readonly #leaseTakeovers = this.#counter('switchyard_batch_lease_takeovers_total', 'Accounts whose batches this instance took over from an instance whose lease had run out', []);

  constructor(overruns: Pick<OverrunCounter, 'read'>) {
    collectDefaultMetrics({ register: this.#registry });
    this.#overrunMetrics(overruns);
  }

  get contentType(): string {
    return this.#registry.contentType;
  }

  text(): Promise<string> {
    return this.#registry.metrics();
  }

  requestEnded(request: EndedRequest): void {
    const provider = request.provider ?? 'none';
    this.#requests.inc([request.route, String(request.status)]);
    this.#duration.observe([request.route, provider], request.durationMs / 1000);
    if (request.firstContentMs !== undefined) this.#firstToken.observe([request.route, provider], request.firstContentMs / 1000);
  }

  refused(error: GatewayError): void {
    this.#refusals.inc([error.code]);
  }

  attemptFailed(failed: AttemptFailure): void {
    const { endpoint } = failed.attempt;
    this.#attempts.inc([endpoint.provider.slug, endpoint.id]);
    this.#failures.inc([endpoint.provider.slug, endpoint.id, failed.failure.kind]);
  }

  answered(attempt: PlannedAttempt): void {
    this.#attempts.inc([attempt.endpoint.provider.slug, attempt.endpoint.id]);
  }

  streamOpened(): void {
    this.#openStreams.value += 1;
  }

  streamClosed(): void {
    this.#openStreams.value -= 1;
  }

  holdOpened(): void {
    this.#openHolds.value += 1;
  }

  holdClosed(): void {
    this.#openHolds.value -= 1;
  }

  ledgerWrite(operation: LedgerWrite, seconds: number): void {
    this.#ledgerWrites.observe([operation], seconds);
  }

  /** Whether the rate limits are enforced per instance now (Redis unreachable). */
  rateLimitFallback(falling: boolean): void {
    this.#fallbackLimits.set(falling ? 1 : 0);
  }

  liveInstances(count: number): void {
    this.#liveInstances.set(count);
  }

  signalsListening(listening: boolean): void {
    this.#signalsHeard.set(listening ? 1 : 0);
  }

  signalHeard(signal: FleetSignal, delayMs: number): void {
    this.#signalDelay.observe({ signal }, Math.max(0, delayMs) / 1000);
  }

  leaseTakenOver(): void {
    this.#leaseTakeovers.inc();
  }

  /** 1 or 0 per dependency (database, key store, Redis, catalogue), from `readiness` run at each scrape. */
  dependencyHealth(readiness: ReadinessProbe): void {
    new Gauge({
      name: 'switchyard_dependency_up',
      help: 'Whether each thing this instance depends on answered at the scrape (the checks of /readyz), by dependency',
      labelNames: ['dependency'],
      registers: [this.#registry],
      async collect() {
        for (const check of (await readiness.probe()).checks) this.set({ dependency: check.name }, check.ok ? 1 : 0);
      },
    });
  }

  rateLimited(limit: RateLimitName): void {
    this.#rateLimited.inc([limit]);
  }

  catalogueReloaded(outcome: ReloadReport['outcome']): void {
    this.#reloads.inc({ outcome });
  }

  /** The charge-cap overruns per endpoint (see stats/overrun-counter.ts), read at each scrape. */
  #overrunMetrics(overruns: Pick<OverrunCounter, 'read'>): void {
    this.#counter('switchyard_charge_overruns_total', 'Settlements whose charge was cut below the reported usage\'s price, by endpoint', ['endpoint'], function collect() {
      this.reset();
      for (const row of overruns.read()) this.inc({ endpoint: row.endpointId }, row.count);
    });
    this.#counter('switchyard_uncollected_usd_total', 'USD left uncollected by those cut charges, by endpoint', ['endpoint'], function collect() {
      this.reset();
      for (const row of overruns.read()) this.inc({ endpoint: row.endpointId }, toUsdNumber(row.uncollectedUnits));
    });
  }

  #counter<Label extends string>(name: string, help: string, labelNames: readonly Label[], collect?: (this: Counter<Label>) => void): Counter<Label> {
    return new Counter({ name, help, labelNames, registers: [this.#registry], ...(collect && { collect }) });
  }

  /** A counter counted on every request: its series kept (see series-metrics.ts). */
  #seriesCounter(name: string, help: string, labelNames: readonly string[]): SeriesCounter {
    return new SeriesCounter(name, help, labelNames, this.#registry);
  }

  /** A histogram observed on every request: its series kept (see series-metrics.ts). */
  #seriesHistogram(name: string, help: string, labelNames: readonly string[], buckets: readonly number[]): SeriesHistogram {
    return new SeriesHistogram(name, help, labelNames, buckets, this.#registry);
  }

  /** A gauge of what is open now, kept as a number and read at each scrape: it moves twice per request. */
  #openCount(name: string, help: string): { value: number } {
    const open = { value: 0 };
    new Gauge({
      name,
      help,
      registers: [this.#registry],
      collect() {
        this.set(open.value);
      },
    });
    return open;
  }

  #gauge(name: string, help: string): Gauge {
    return new Gauge({ name, help, registers: [this.#registry] });
  }

  #histogram<Label extends string>(name: string, help: string, labelNames: readonly Label[], buckets: number[]): Histogram<Label> {
    return new Histogram({ name, help, labelNames, buckets, registers: [this.#registry] });
  }
}
