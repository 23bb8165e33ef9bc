import type { EndpointEntry, ModelEntry } from '../catalogue/types.js';

/** One endpoint the executor may try, in order, with what the planner decided for it. */
export interface PlannedAttempt {
  model: ModelEntry;
  endpoint: EndpointEntry;
  /** Output ceiling to send upstream (trimmed to fit the window), or undefined for none. */
  ceiling?: number;
  /** Estimated prompt tokens as this endpoint receives them (messages plus tool schemas). */
  promptTokens: number;
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
