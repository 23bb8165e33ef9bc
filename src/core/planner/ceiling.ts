import type { EndpointEntry } from '../../catalogue/types.js';

/** The most output tokens an endpoint can emit: its declared max completion, else its window. */
export function endpointOutputLimit(endpoint: EndpointEntry): number {
  return endpoint.maxCompletionTokens ?? endpoint.contextLength;
}

/** True when the endpoint can emit the whole requested ceiling. */
export function reachesCeiling(endpoint: EndpointEntry, requested: number | undefined): boolean {
  return requested === undefined || endpointOutputLimit(endpoint) >= requested;
}

/**
 * The ceiling to send: the requested one lowered to the endpoint's own limit, then trimmed so
 * prompt plus ceiling fits the window. Undefined when the caller asked for none.
 */
export function plannedCeiling(endpoint: EndpointEntry, requested: number | undefined, promptTokens: number): number | undefined {
  if (requested === undefined) return undefined;
  const room = endpoint.contextLength - promptTokens;
  return Math.max(1, Math.min(requested, endpointOutputLimit(endpoint), room));
}

/** The output the hold must cover: the planned ceiling, or all the endpoint could emit. */
export function heldCeiling(endpoint: EndpointEntry, planned: number | undefined, promptTokens: number): number {
  if (planned !== undefined) return planned;
  return Math.max(1, Math.min(endpointOutputLimit(endpoint), endpoint.contextLength - promptTokens));
}
