import { describe, expect, test } from 'vitest';
import { chargedPricesForDisplay, computeCost, effectivePrices, holdAmount } from '../../../src/billing/pricing.js';
import { parseUsd } from '../../../src/billing/money.js';
import type { PriceTable } from '../../../src/catalogue/types.js';
import { pricingOf } from '../../fixtures/catalogue/documents.js';

const NOON_WEDNESDAY = new Date('2025-06-04T12:00:00Z');
const usd = parseUsd;

function texts(table: PriceTable): Record<string, string> {
  return Object.fromEntries(Object.entries(table).map(([key, price]) => [key, price.text]));
}

describe('effective prices', () => {
  const tiered = pricingOf({
    prompt: '1',
    completion: '2',
    overrides: [
      { min_prompt_tokens: 1000, prompt: '3' },
      { min_prompt_tokens: 2000, prompt: '4', completion: '5' },
    ],
  });

  test('min_prompt_tokens applies only when the prompt is strictly longer', () => {
    expect(texts(effectivePrices(tiered, { promptTokens: 1000, now: NOON_WEDNESDAY }))).toEqual({ prompt: '1', completion: '2' });
    expect(texts(effectivePrices(tiered, { promptTokens: 1001, now: NOON_WEDNESDAY }))).toEqual({ prompt: '3', completion: '2' });
  });

  test('among matching entries the last price per key wins', () => {
    expect(texts(effectivePrices(tiered, { promptTokens: 5000, now: NOON_WEDNESDAY }))).toEqual({ prompt: '4', completion: '5' });
  });

  test('without a prompt count only the entry’s own prices apply', () => {
    const windowed = pricingOf({ prompt: '1', overrides: [{ utc_start: '0000', utc_end: '2400', prompt: '9' }] });
    expect(texts(effectivePrices(tiered, { now: NOON_WEDNESDAY }))).toEqual({ prompt: '1', completion: '2' });
    expect(texts(effectivePrices(windowed, { now: NOON_WEDNESDAY }))).toEqual({ prompt: '1' });
  });

  test('an active time window wins over a default-rate override written after it', () => {
    const pricing = pricingOf({
      prompt: '1',
      overrides: [
        { utc_start: '1100', utc_end: '1300', prompt: '0.5' },
        { min_prompt_tokens: 10, prompt: '3' },
      ],
    });
    expect(texts(effectivePrices(pricing, { promptTokens: 100, now: NOON_WEDNESDAY }))).toEqual({ prompt: '0.5' });
    const evening = new Date('2025-06-04T18:00:00Z');
    expect(texts(effectivePrices(pricing, { promptTokens: 100, now: evening }))).toEqual({ prompt: '3' });
  });

  test('a window that wraps midnight holds on both sides of it, on the day it opens', () => {
    const pricing = pricingOf({ prompt: '1', overrides: [{ utc_start: '2200', utc_end: '0600', utc_days: ['friday'], prompt: '0.5' }] });
    const at = (iso: string) => effectivePrices(pricing, { promptTokens: 1, now: new Date(iso) }).prompt?.text;
    expect(at('2025-06-06T23:00:00Z')).toBe('0.5'); // Friday night
    expect(at('2025-06-07T05:59:00Z')).toBe('0.5'); // Saturday morning, window opened Friday
    expect(at('2025-06-07T06:00:00Z')).toBe('1'); // end excluded
    expect(at('2025-06-07T23:00:00Z')).toBe('1'); // Saturday night: not a listed day
    expect(at('2025-06-06T05:00:00Z')).toBe('1'); // Friday morning belongs to Thursday's window
    expect(at('2025-06-06T21:59:00Z')).toBe('1');
  });

  test('all conditions of an entry must match', () => {
    const pricing = pricingOf({ prompt: '1', overrides: [{ min_prompt_tokens: 100, utc_start: '1100', utc_end: '1300', prompt: '2' }] });
    expect(effectivePrices(pricing, { promptTokens: 50, now: NOON_WEDNESDAY }).prompt?.text).toBe('1');
    expect(effectivePrices(pricing, { promptTokens: 150, now: NOON_WEDNESDAY }).prompt?.text).toBe('2');
    expect(effectivePrices(pricing, { promptTokens: 150, now: new Date('2025-06-04T14:00:00Z') }).prompt?.text).toBe('1');
  });
});

describe('hold', () => {
  test('the hold is prompt × prompt price + ceiling × completion price + request price, exactly', () => {
    const pricing = pricingOf({ prompt: '0.0000005', completion: '0.0000015', request: '0.001' });
    const hold = holdAmount(pricing, { promptTokens: 1000, ceilingTokens: 500, now: NOON_WEDNESDAY });
    expect(hold).toBe(usd('0.0005') + usd('0.00075') + usd('0.001'));
  });

  test('undeclared prices count 0 in the hold', () => {
    expect(holdAmount(pricingOf({}), { promptTokens: 1000, ceilingTokens: 500, now: NOON_WEDNESDAY })).toBe(0n);
  });

  test('the hold is never below the settlement of the same counts, whatever the time or token split', () => {
    const pricing = pricingOf({
      prompt: '1',
      completion: '2',
      input_cache_write: '1.25',
      internal_reasoning: '5',
      request: '0.5',
      overrides: [
        { min_prompt_tokens: 100, prompt: '1.5' },
        { utc_start: '2200', utc_end: '0200', prompt: '0.5', completion: '10' },
      ],
    });
    const hold = holdAmount(pricing, { promptTokens: 200, ceilingTokens: 50, now: NOON_WEDNESDAY });
    for (const now of [NOON_WEDNESDAY, new Date('2025-06-04T23:00:00Z')]) {
      for (const usage of [
        { promptTokens: 200, completionTokens: 50 },
        { promptTokens: 200, completionTokens: 50, reasoningTokens: 50, cacheWriteTokens: 200 },
        { promptTokens: 200, completionTokens: 50, cachedTokens: 100 },
      ]) {
        const { cost } = computeCost(pricing, usage, { estimatedPromptTokens: 200, now });
        expect(hold >= cost).toBe(true);
      }
    }
  });
});

describe('media holds', () => {
  test('an image call holds its pictures, megapixels, output tokens and reference pictures; a transcription its seconds', () => {
    const pricing = pricingOf({ image: '0.002', image_output: '0.04', image_megapixel: '0.01', image_output_token: '0.00004', audio_second: '0.0001' });
    const images = holdAmount(pricing, { promptTokens: 0, ceilingTokens: 0, now: NOON_WEDNESDAY, images: { count: 2, megapixels: '2.097152', outputTokens: 100, references: 3 } });
    expect(images).toBe(parseUsd('0.08') + parseUsd('0.02097152') + parseUsd('0.004') + parseUsd('0.006'));
    expect(holdAmount(pricing, { promptTokens: 0, ceilingTokens: 0, now: NOON_WEDNESDAY, audioSeconds: '12.5' })).toBe(parseUsd('0.00125'));
  });
});

describe('settlement', () => {
  const pricing = pricingOf({
    prompt: '0.000001',
    completion: '0.000002',
    input_cache_read: '0.0000001',
    internal_reasoning: '0.000003',
    request: '0.01',
  });

  test('cached tokens are charged at input_cache_read and reasoning tokens at internal_reasoning', () => {
    const usage = { promptTokens: 1000, cachedTokens: 400, completionTokens: 300, reasoningTokens: 100 };
    const { cost, lines } = computeCost(pricing, usage, { estimatedPromptTokens: 900, now: NOON_WEDNESDAY });
    expect(lines).toEqual([
      { key: 'prompt', quantity: '600', amount: usd('0.0006') },
      { key: 'input_cache_read', quantity: '400', amount: usd('0.00004') },
      { key: 'completion', quantity: '200', amount: usd('0.0004') },
      { key: 'internal_reasoning', quantity: '100', amount: usd('0.0003') },
      { key: 'request', quantity: '1', amount: usd('0.01') },
    ]);
    expect(cost).toBe(usd('0.01134'));
  });

  test('cache reads and writes fall back to the prompt price; reasoning to completion', () => {
    const plain = pricingOf({ prompt: '0.000001', completion: '0.000002' });
    const usage = { promptTokens: 100, cachedTokens: 30, cacheWriteTokens: 20, completionTokens: 10, reasoningTokens: 4 };
    const { cost, lines } = computeCost(plain, usage, { estimatedPromptTokens: 100, now: NOON_WEDNESDAY });
    expect(lines).toEqual([
      { key: 'prompt', quantity: '50', amount: usd('0.00005') },
      { key: 'input_cache_read', quantity: '30', amount: usd('0.00003') },
      { key: 'input_cache_write', quantity: '20', amount: usd('0.00002') },
      { key: 'completion', quantity: '10', amount: usd('0.00002') },
    ]);
    expect(cost).toBe(usd('0.00012'));
  });

  test('a unit with no declared price is recorded with a null amount and charges nothing', () => {
    const promptOnly = pricingOf({ prompt: '0.000001' });
    const { cost, lines } = computeCost(promptOnly, { promptTokens: 10, completionTokens: 5 }, { estimatedPromptTokens: 10, now: NOON_WEDNESDAY });
    expect(lines).toEqual([
      { key: 'prompt', quantity: '10', amount: usd('0.00001') },
      { key: 'completion', quantity: '5', amount: null },
    ]);
    expect(cost).toBe(usd('0.00001'));
  });

  test('unreported counts charge nothing and the prompt is recorded unmeasured at the entry’s own price', () => {
    const tiered = pricingOf({ prompt: '1', completion: '2', overrides: [{ min_prompt_tokens: 0, completion: '9' }] });
    const { cost, lines } = computeCost(tiered, { completionTokens: 3 }, { estimatedPromptTokens: 50, now: NOON_WEDNESDAY });
    expect(lines).toEqual([
      { key: 'prompt', quantity: 'unmeasured', amount: 0n },
      { key: 'completion', quantity: '3', amount: usd('6') },
    ]);
    expect(cost).toBe(usd('6'));
    const nothing = computeCost(tiered, {}, { estimatedPromptTokens: 50, now: NOON_WEDNESDAY });
    expect(nothing.cost).toBe(0n);
  });

  test('overrides are selected with the reported prompt count, not the estimate', () => {
    const tiered = pricingOf({ prompt: '1', overrides: [{ min_prompt_tokens: 100, prompt: '2' }] });
    const { cost } = computeCost(tiered, { promptTokens: 150 }, { estimatedPromptTokens: 50, now: NOON_WEDNESDAY });
    expect(cost).toBe(usd('300'));
  });
});

describe('pricing record', () => {
  test('shows declared keys as exact decimals, discount always as a fraction, overrides when any', () => {
    expect(chargedPricesForDisplay(pricingOf({ completion: '0.0000015', prompt: '0.00000050' }))).toEqual({
      prompt: '0.0000005',
      completion: '0.0000015',
      discount: 0,
    });
    const record = chargedPricesForDisplay(
      pricingOf({ prompt: '1', discount: '0.10', overrides: [{ utc_start: '2200', utc_end: '0600', utc_days: ['friday'], prompt: '0.5' }] }),
    );
    expect(record).toEqual({
      prompt: '1',
      discount: 0.1,
      overrides: [{ prompt: '0.5', utc_start: 2200, utc_end: 600, utc_days: ['friday'] }],
    });
  });
});
