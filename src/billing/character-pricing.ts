/**
 * Speech is billed per input character, counted by the service before sending, so the charge is
 * known before the audio exists. Seconds of audio are not billed.
 */
import type { EndpointPricing } from '../catalogue/types.js';
import { times } from './money.js';
import { effectivePrices, type CostResult } from './pricing.js';
import type { CostLine } from './types.js';

/**
 * The exact charge of a synthesis of `characters` input characters: the `character` price times
 * the count (recorded unpriced, charging nothing, where the endpoint publishes no character price),
 * plus the `request` price where one is published.
 */
export function computeCharacterCost(pricing: EndpointPricing, characters: number, now: Date): CostResult {
  // No prompt: clock-window overrides apply, prompt-length ones never do.
  const table = effectivePrices(pricing, { promptTokens: 0, now });
  const price = table.character;
  const lines: CostLine[] = [{ key: 'character', quantity: String(characters), amount: price ? times(price.units, characters) : null }];
  if (table.request) lines.push({ key: 'request', quantity: '1', amount: table.request.units });
  return { cost: lines.reduce((sum, line) => sum + (line.amount ?? 0n), 0n), lines };
}
