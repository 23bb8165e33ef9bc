import type { Capability, CapabilityVerdictView, CheckObservation } from '../core/capability-checks.js';
import { PROBE_VERSION } from '../prober/probe-version.js';

/** One endpoint's observation of one capability, as stored and shared between instances. */
export interface CheckVerdict extends CheckObservation {
  endpointId: string;
  capability: Capability;
}

/**
 * The latest check observation per endpoint and capability, in memory: filled by the prober, by
 * the verdicts other instances stored (read at start and then every minute), and read by the
 * planner. An observation older than the one held is ignored, so arrival order does not matter.
 */
export class CheckVerdicts implements CapabilityVerdictView {
  readonly #latest = new Map<string, CheckVerdict>();

  constructor(readonly probeVersion: number = PROBE_VERSION) {}

  /** Keeps `verdict` when it is newer than the one held; true when it was kept. */
  record(verdict: CheckVerdict): boolean {
    const key = verdictKey(verdict.endpointId, verdict.capability);
    const previous = this.#latest.get(key);
    if (previous && previous.at > verdict.at) return false;
    this.#latest.set(key, verdict);
    return true;
  }

  latest(endpointId: string, capability: Capability): CheckVerdict | undefined {
    return this.#latest.get(verdictKey(endpointId, capability));
  }

  /** Every latest verdict, in no particular order. */
  all(): CheckVerdict[] {
    return [...this.#latest.values()];
  }
}

function verdictKey(endpointId: string, capability: string): string {
  return `${endpointId}\u0000${capability}`;
}
