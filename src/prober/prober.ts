import type { Logger } from 'pino';
import { servingRevision } from '../catalogue/serving-revision.js';
import type { Catalogue } from '../catalogue/types.js';
import type { CheckVerdict, CheckVerdicts } from '../stats/check-verdicts.js';
import { CHECK_TABLE } from './check-table.js';
import type { CapabilityCheck, Judgement, Probe } from './probe.js';
import { runProbe, type ProbeServices, type ProbeTarget } from './probe-runner.js';
import type { VerdictStore } from './verdict-store.js';

/** What became of one probe: the verdict recorded, or why none was. */
export interface CheckOutcome {
  modelId: string;
  endpointId: string;
  capability: Probe['capability'];
  verdict?: CheckVerdict;
  /** Why the reply said nothing of the capability (an outage, a timeout, no route). */
  inconclusive?: string;
}

export interface ProberOptions {
  services: ProbeServices;
  verdicts: CheckVerdicts;
  store: VerdictStore;
  logger: Pick<Logger, 'info' | 'warn' | 'error'>;
  checks?: readonly CapabilityCheck[];
  now?: () => number;
  /** Probes sent at once (default 4). */
  concurrency?: number;
}

/** Longest detail kept with a verdict. */
const DETAIL_LIMIT = 300;

/** How far back a refresh reads again, for a verdict another instance wrote with a clock behind ours. */
const REFRESH_OVERLAP_MS = 5 * 60_000;

/**
 * Runs the check table against the catalogue and records verdicts, in memory (what the planner
 * reads) and in the database (what survives restarts and what other instances read).
 */
export class Prober {
  readonly #options: ProberOptions;
  readonly #now: () => number;
  /** When each probe last ran here, verdict or not: an inconclusive probe is not repeated at once. */
  readonly #tried = new Map<string, number>();
  #readUpTo = 0;

  constructor(options: ProberOptions) {
    this.#options = options;
    this.#now = options.now ?? Date.now;
  }

  /**
   * Runs the probes of every live endpoint, or with `dueAfterMs` only those whose latest verdict
   * (from any instance) or latest try here is older than that, is of another serving revision or
   * probe version, or is missing. Resolves with each probe's outcome once all ran.
   */
  async run(catalogue: Catalogue, options: { dueAfterMs?: number; signal: AbortSignal }): Promise<CheckOutcome[]> {
    const pending = this.#planned(catalogue).filter(({ target, probe }) => options.dueAfterMs === undefined || this.#isDue(target, probe, options.dueAfterMs));
    const outcomes: CheckOutcome[] = [];
    const next = async (): Promise<void> => {
      for (let item = pending.shift(); item && !options.signal.aborted; item = pending.shift()) {
        outcomes.push(await this.#check(item.target, item.probe, options.signal));
      }
    };
    await Promise.all(Array.from({ length: this.#options.concurrency ?? 4 }, next));
    return outcomes;
  }

  /** Reads the verdicts stored since the last read (all of them the first time). */
  async refresh(): Promise<void> {
    const startedAt = this.#now();
    const since = this.#readUpTo === 0 ? 0 : this.#readUpTo - REFRESH_OVERLAP_MS;
    for (const verdict of await this.#options.store.readSince(since)) this.#options.verdicts.record(verdict);
    this.#readUpTo = startedAt;
  }

  #planned(catalogue: Catalogue): { target: ProbeTarget; probe: Probe }[] {
    const checks = this.#options.checks ?? CHECK_TABLE;
    return [...catalogue.models.values()].flatMap((model) => model.endpoints
      .filter((endpoint) => !endpoint.disabled)
      .flatMap((endpoint) => checks.flatMap((check) => check.probes(endpoint)).map((probe) => ({ target: { model, endpoint }, probe }))));
  }

  #isDue(target: ProbeTarget, probe: Probe, dueAfterMs: number): boolean {
    const latest = this.#options.verdicts.latest(target.endpoint.id, probe.capability);
    const current = latest?.revision === servingRevision(target.endpoint) && latest.probeVersion === this.#options.verdicts.probeVersion;
    const last = Math.max(current ? latest.at : 0, this.#tried.get(tryKey(target, probe)) ?? 0);
    return this.#now() - last >= dueAfterMs;
  }

  async #check(target: ProbeTarget, probe: Probe, signal: AbortSignal): Promise<CheckOutcome> {
    const { endpoint, model } = target;
    const startedAt = this.#now();
    this.#tried.set(tryKey(target, probe), startedAt);
    const outcome: CheckOutcome = { modelId: model.id, endpointId: endpoint.id, capability: probe.capability };
    const judgement = await this.#judged(target, probe, signal);
    if ('inconclusive' in judgement) {
      outcome.inconclusive = judgement.inconclusive;
      return outcome;
    }
    const verdict: CheckVerdict = {
      endpointId: endpoint.id,
      capability: probe.capability,
      passed: judgement.passed,
      at: startedAt,
      revision: servingRevision(endpoint),
      probeVersion: this.#options.verdicts.probeVersion,
      detail: judgement.detail.slice(0, DETAIL_LIMIT),
    };
    outcome.verdict = verdict;
    await this.#record(verdict);
    return outcome;
  }

  /** The probe's judgement; a fault of the service itself (the database gone, say) is logged and inconclusive. */
  async #judged(target: ProbeTarget, probe: Probe, signal: AbortSignal): Promise<Judgement> {
    try {
      return probe.judge(await runProbe(this.#options.services, target, probe, signal));
    } catch (error) {
      this.#options.logger.error({ err: error, endpoint: target.endpoint.id, capability: probe.capability }, 'capability check could not run');
      return { inconclusive: `the check could not run: ${error instanceof Error ? error.message : String(error)}` };
    }
  }

  async #record(verdict: CheckVerdict): Promise<void> {
    this.#options.verdicts.record(verdict);
    const fields = { endpoint: verdict.endpointId, capability: verdict.capability, detail: verdict.detail };
    if (!verdict.passed) this.#options.logger.warn(fields, 'capability check failed: the promise is withheld until a check passes');
    try {
      await this.#options.store.save(verdict);
    } catch (error) {
      this.#options.logger.error({ err: error, ...fields }, 'capability check verdict could not be stored');
    }
  }
}

function tryKey(target: ProbeTarget, probe: Probe): string {
  return `${target.endpoint.id}\u0000${probe.capability}`;
}
