import { REASONING_EFFORTS, type ReasoningEffort } from '../catalogue/types.js';

/**
 * A declared promise a check verifies (spec 01 rules 1, 4, 5, 10 and call-ready dispatch): tools,
 * structured outputs, call-ready dispatch, one declared reasoning effort level, effort `none`
 * keeping reasoning out of the reply, or one declared input modality.
 */
export type Capability =
  | 'tools'
  | 'structured_outputs'
  | 'tool_call_dispatch'
  | 'reasoning_none'
  | `reasoning_effort:${ReasoningEffort}`
  | `input:${string}`;

/** What one check observed of one capability of one endpoint. */
export interface CheckObservation {
  passed: boolean;
  /** When it was observed (ms since epoch). */
  at: number;
  /** What the endpoint served then (see catalogue/serving-revision.ts). */
  revision: string;
  /** The version of the checks that observed it (see core/probe-version.ts). */
  probeVersion: number;
  /** What was seen, in words: why it failed, or what passed. */
  detail: string;
}

/** The latest observations, as routing reads them; no I/O behind it. */
export interface CapabilityVerdictView {
  /** The latest observation of this capability of this endpoint; undefined when never checked. */
  latest(endpointId: string, capability: Capability): CheckObservation | undefined;
  /** The version of the checks this instance runs. */
  readonly probeVersion: number;
}

/** How long a failed effort observation refutes its level (spec 02 `refuted_reasoning_efforts`). */
export const EFFORT_REFUTATION_MS = 24 * 60 * 60 * 1000;

/** The latest observation of the capability when it failed: the promise is withheld until a later check passes. */
export function withheld(view: CapabilityVerdictView, endpointId: string, capability: Capability): CheckObservation | undefined {
  const latest = view.latest(endpointId, capability);
  return latest && !latest.passed ? latest : undefined;
}

/**
 * The failed observation refuting a declared effort level, if one does: it matches the serving
 * revision and the probe version, and is under 24 hours old at `now`.
 */
export function effortRefutation(
  view: CapabilityVerdictView,
  endpoint: { id: string; revision: string },
  effort: ReasoningEffort,
  now: number,
): CheckObservation | undefined {
  const failed = withheld(view, endpoint.id, `reasoning_effort:${effort}`);
  if (!failed || failed.revision !== endpoint.revision || failed.probeVersion !== view.probeVersion) return undefined;
  return now - failed.at < EFFORT_REFUTATION_MS ? failed : undefined;
}

/** The declared effort levels refuted now (spec 02 endpoint entry `refuted_reasoning_efforts`). */
export function refutedEfforts(
  view: CapabilityVerdictView,
  endpoint: { id: string; revision: string; efforts: readonly ReasoningEffort[] },
  now: number,
): ReasoningEffort[] {
  return endpoint.efforts.filter((effort) => effortRefutation(view, endpoint, effort, now) !== undefined);
}

/** A routing rejection naming the failed check and what it saw. */
export function failedCheckReason(what: string, failed: CheckObservation): string {
  return `${what}: its latest check failed (${failed.detail})`;
}

const PLAIN_CAPABILITIES: readonly string[] = ['tools', 'structured_outputs', 'tool_call_dispatch', 'reasoning_none'];

/** Whether a stored name is a capability this version checks (a newer instance may know more). */
export function isCapability(name: string): name is Capability {
  if (PLAIN_CAPABILITIES.includes(name)) return true;
  if (name.startsWith('reasoning_effort:')) return (REASONING_EFFORTS as readonly string[]).includes(name.slice('reasoning_effort:'.length));
  return name.startsWith('input:') && name.length > 'input:'.length;
}
