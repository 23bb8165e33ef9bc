import type { EndpointEntry, ModelEntry } from '../catalogue/types.js';
import type { UpstreamFailure } from './events.js';
import type { CoreMessage } from './request.js';

/** One endpoint the executor may try, in order, with what the planner decided for it. */
export interface PlannedAttempt {
  model: ModelEntry;
  /** The model id as the caller asked for it (suffix included); what the reply names. */
  modelId: string;
  endpoint: EndpointEntry;
  /** Output ceiling to send upstream (lowered to the endpoint's own and trimmed to fit), or undefined. */
  ceiling?: number;
  /**
   * The output the credit hold covers: the planned ceiling, else all the endpoint can emit beside
   * the prompt. A wire that requires a ceiling sends this one.
   */
  heldCeiling: number;
  /** Estimated prompt tokens as this endpoint receives them (messages plus tool schemas). */
  promptTokens: number;
  /** The conversation this endpoint receives when it differs from the request's (middle-out). */
  messages?: CoreMessage[];
  /** The serving provider's `provider.options` entry, checked against its descriptors. */
  options?: Record<string, unknown>;
}

export interface Plan {
  attempts: PlannedAttempt[];
}

/** Why an endpoint was not eligible, itemised in a 503 no_route. */
export interface Rejection {
  endpoint: string;
  provider: string;
  model: string;
  reason: string;
}

/** One attempt that failed before committing an answer, and why. */
export interface AttemptFailure {
  attempt: PlannedAttempt;
  failure: UpstreamFailure;
}
