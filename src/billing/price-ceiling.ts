import type { EndpointPricing } from '../catalogue/types.js';
import { parseUsd } from './money.js';

const PER_MILLION = 1_000_000n;

export type PriceCeilings = Partial<Record<'prompt' | 'completion' | 'request' | 'image', string>>;

/**
 * Which of the caller's `max_price` ceilings an endpoint's declared prices exceed, or null.
 * Token prices are compared per million tokens; request and image prices per unit. An undeclared
 * price is unknown and never exceeds a ceiling.
 */
export function exceededCeiling(pricing: EndpointPricing, ceilings: PriceCeilings): string | null {
  const checks: [keyof PriceCeilings, bigint][] = [
    ['prompt', PER_MILLION],
    ['completion', PER_MILLION],
    ['request', 1n],
    ['image', 1n],
  ];
  for (const [key, scale] of checks) {
    const ceiling = ceilings[key];
    const price = pricing.prices[key]?.units;
    if (ceiling === undefined || price === undefined) continue;
    if (price * scale > parseUsd(ceiling)) return key;
  }
  return null;
}

/** True when the endpoint declares its token prices and every declared price is zero. */
export function isFreeEndpoint(pricing: EndpointPricing): boolean {
  const declared = Object.values(pricing.prices);
  return pricing.prices.prompt !== undefined && pricing.prices.completion !== undefined &&
    declared.every((price) => price?.units === 0n);
}
