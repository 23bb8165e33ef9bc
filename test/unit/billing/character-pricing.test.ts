import { describe, expect, test } from 'vitest';
import { computeCharacterCost } from '../../../src/billing/character-pricing.js';
import { holdAmount } from '../../../src/billing/pricing.js';
import { parseUsd } from '../../../src/billing/money.js';
import { countCharacters } from '../../../src/core/speech.js';
import { pricingOf } from '../../fixtures/catalogue/documents.js';

const NOON = new Date('2025-06-04T12:00:00Z');
const NIGHT = new Date('2025-06-04T23:00:00Z');

describe('speech billing per input character', () => {
  test('characters are Unicode code points: an emoji or an accented letter counts once', () => {
    expect(countCharacters('Héllo 👋')).toBe(7);
    expect(countCharacters('')).toBe(0);
  });

  test('the charge is characters × the character price, exactly, plus a request price where published', () => {
    const pricing = pricingOf({ character: '0.000015', request: '0.001' });
    const priced = computeCharacterCost(pricing, 1234, NOON);
    expect(priced.cost).toBe(parseUsd('0.000015') * 1234n + parseUsd('0.001'));
    expect(priced.lines).toEqual([
      { key: 'character', quantity: '1234', amount: parseUsd('0.000015') * 1234n },
      { key: 'request', quantity: '1', amount: parseUsd('0.001') },
    ]);
  });

  test('without a character price the characters are recorded unpriced and nothing is charged', () => {
    const priced = computeCharacterCost(pricingOf({ prompt: '0.000001' }), 50, NOON);
    expect(priced).toEqual({ cost: 0n, lines: [{ key: 'character', quantity: '50', amount: null }] });
  });

  test('a clock-window override applies; a prompt-length one never does', () => {
    const pricing = pricingOf({
      character: '0.00002',
      overrides: [{ min_prompt_tokens: 0, character: '0.5' }, { utc_start: '2200', utc_end: '0600', character: '0.00001' }],
    });
    expect(computeCharacterCost(pricing, 10, NOON).cost).toBe(parseUsd('0.00002') * 10n);
    expect(computeCharacterCost(pricing, 10, NIGHT).cost).toBe(parseUsd('0.00001') * 10n);
  });

  test('the hold covers the characters at the dearest price any window could set', () => {
    const pricing = pricingOf({ character: '0.00001', overrides: [{ utc_start: '0000', utc_end: '0100', character: '0.00003' }] });
    expect(holdAmount(pricing, { promptTokens: 0, ceilingTokens: 0, now: NOON, characters: 100 })).toBe(parseUsd('0.00003') * 100n);
  });
});
