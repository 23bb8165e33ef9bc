import type { EndpointEntry, ModelEntry } from '../types.js';

/** The model's live endpoints: those the operator has not disabled. */
export function liveEndpoints(model: ModelEntry): EndpointEntry[] {
  return model.endpoints.filter((endpoint) => !endpoint.disabled);
}

/**
 * The endpoint a summary describes: the lowest charged prompt-token price, then completion-token
 * price, then endpoint id; an undeclared price sorts after every declared one.
 */
export function summaryEndpoint(endpoints: readonly EndpointEntry[]): EndpointEntry | undefined {
  let cheapest: EndpointEntry | undefined;
  for (const endpoint of endpoints) {
    if (cheapest === undefined || byChargedPrice(endpoint, cheapest) < 0) cheapest = endpoint;
  }
  return cheapest;
}

/** Cheapest first: prompt-token price, then completion-token price, then endpoint id; unknown prices last. */
export function byChargedPrice(a: EndpointEntry, b: EndpointEntry): number {
  return comparePrice(a, b, 'prompt') || comparePrice(a, b, 'completion') || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

function comparePrice(a: EndpointEntry, b: EndpointEntry, key: 'prompt' | 'completion'): number {
  const left = a.pricing.prices[key]?.units;
  const right = b.pricing.prices[key]?.units;
  if (left === undefined || right === undefined) return left === right ? 0 : left === undefined ? 1 : -1;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Distinct values in first-seen order. */
export function union<T>(lists: readonly (readonly T[])[]): T[] {
  return [...new Set(lists.flat())];
}
