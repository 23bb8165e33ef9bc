import { describe, expect, test } from 'vitest';
import { isTimeWindow, overrideApplies } from '../../../src/catalogue/override-conditions.js';
import type { PriceOverride } from '../../../src/catalogue/types.js';

const at = (iso: string) => ({ promptTokens: 1, now: new Date(iso) });

describe('override conditions', () => {
  test('equal ends make a whole-day window; 2400 closes at midnight', () => {
    const wholeDay: PriceOverride = { prices: {}, utcStart: '0900', utcEnd: '0900' };
    expect(overrideApplies(wholeDay, at('2025-06-04T03:00:00Z'))).toBe(true);
    expect(overrideApplies(wholeDay, at('2025-06-04T15:00:00Z'))).toBe(true);
    const evening: PriceOverride = { prices: {}, utcStart: '1800', utcEnd: '2400' };
    expect(overrideApplies(evening, at('2025-06-04T23:59:00Z'))).toBe(true);
    expect(overrideApplies(evening, at('2025-06-04T17:59:00Z'))).toBe(false);
  });

  test('utc_days alone applies all day on the named days', () => {
    const weekend: PriceOverride = { prices: {}, utcDays: ['saturday', 'sunday'] };
    expect(isTimeWindow(weekend)).toBe(true);
    expect(overrideApplies(weekend, at('2025-06-07T10:00:00Z'))).toBe(true);
    expect(overrideApplies(weekend, at('2025-06-09T10:00:00Z'))).toBe(false);
  });

  test('no override applies to an unmeasured prompt', () => {
    const always: PriceOverride = { prices: {}, minPromptTokens: 0 };
    expect(overrideApplies(always, { now: new Date() })).toBe(false);
    expect(overrideApplies(always, { promptTokens: 1, now: new Date() })).toBe(true);
  });
});
