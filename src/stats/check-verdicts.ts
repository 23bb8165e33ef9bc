import type { Capability, CapabilityVerdictView, CheckObservation } from '../core/capability-checks.js';
import { PROBE_VERSION } from '../core/probe-version.js';

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
  /** Latest verdict by endpoint, then capability. */
  readonly #latest = new Map<string, Map<string, CheckVerdict>>();

  constructor(readonly probeVersion: number = PROBE_VERSION) {}

  /** Keeps `verdict` when it is newer than the one held; true when it was kept. */
  record(verdict: CheckVerdict): boolean {
    let byCapability = this.#latest.get(verdict.endpointId);
    if (!byCapability) {
      byCapability = new Map();
      this.#latest.set(verdict.endpointId, byCapability);
    }
    const previous = byCapability.get(verdict.capability);
    if (previous && previous.at > verdict.at) return false;
    byCapability.set(verdict.capability, verdict);
    return true;
  }

  latest(endpointId: string, capability: Capability): CheckVerdict | undefined {
    return this.#latest.get(endpointId)?.get(capability);
  }

  /** Every latest verdict, in no particular order. */
  all(): CheckVerdict[] {
    return [...this.#latest.values()].flatMap((byCapability) => [...byCapability.values()]);
  }

  /** The latest verdict of each checked capability of the endpoint, in capability order. */
  observations(endpointId: string): CheckVerdict[] {
    const byCapability = this.#latest.get(endpointId);
    if (!byCapability) return [];
    return [...byCapability.values()].sort((a, b) => (a.capability < b.capability ? -1 : a.capability > b.capability ? 1 : 0));
  }
}
