import type { EndpointEntry, ModelEntry, PriceKey } from '../types.js';

/** The model's live endpoints: those the operator has not disabled. */
export function liveEndpoints(model: ModelEntry): EndpointEntry[] {
  return model.endpoints.filter((endpoint) => !endpoint.disabled);
}

/** What the summary's endpoint is chosen by: the charged prompt-token, then completion-token price. */
const SUMMARY_PRICES: readonly PriceKey[] = ['prompt', 'completion'];

/**
 * What a speech or transcription endpoint is cheapest by: the prices of what it reads or writes
 * (characters, audio seconds, audio tokens), before the summary's own.
 */
export const SPEECH_PRICES: readonly PriceKey[] = ['character', 'audio_second', 'audio_output', ...SUMMARY_PRICES];

/**
 * The endpoint a summary describes: the lowest charged prompt-token price, then completion-token
 * price, then endpoint id; an undeclared price sorts after every declared one. With `prices`, the
 * cheapest by those.
 */
export function summaryEndpoint(endpoints: readonly EndpointEntry[], prices = SUMMARY_PRICES): EndpointEntry | undefined {
  let cheapest: EndpointEntry | undefined;
  for (const endpoint of endpoints) {
    if (cheapest === undefined || byChargedPrice(endpoint, cheapest, prices) < 0) cheapest = endpoint;
  }
  return cheapest;
}

/** Cheapest first: by each of `prices` in turn (prompt-token, then completion-token), then endpoint id; unknown prices last. */
export function byChargedPrice(a: EndpointEntry, b: EndpointEntry, prices = SUMMARY_PRICES): number {
  for (const key of prices) {
    const order = comparePrice(a, b, key);
    if (order !== 0) return order;
  }
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

function comparePrice(a: EndpointEntry, b: EndpointEntry, key: PriceKey): number {
  const left = a.pricing.prices[key]?.units;
  const right = b.pricing.prices[key]?.units;
  if (left === undefined || right === undefined) return left === right ? 0 : left === undefined ? 1 : -1;
  return left < right ? -1 : left > right ? 1 : 0;
}

/** Distinct values in first-seen order. */
export function union<T>(lists: readonly (readonly T[])[]): T[] {
  return [...new Set(lists.flat())];
}
