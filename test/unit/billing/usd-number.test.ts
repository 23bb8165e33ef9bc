import { describe, expect, it } from 'vitest';
import { formatUsd, parseUsd, toUsdNumber } from '../../../src/billing/money.js';
import { plainDecimal, unitsFromUsdNumber } from '../../../src/billing/usd-number.js';

describe('USD amounts sent as JSON numbers', () => {
  it('a number is read through its shortest decimal form, exactly (0.1 is 0.1, not the nearest double)', () => {
    expect(unitsFromUsdNumber(0.1)).toBe(parseUsd('0.1'));
    expect(unitsFromUsdNumber(20)).toBe(parseUsd('20'));
    expect(unitsFromUsdNumber(2.675)).toBe(parseUsd('2.675'));
  });

  it('exponent forms are expanded: 1e-7, 1.5e-10, 1e+21', () => {
    expect(unitsFromUsdNumber(1e-7)).toBe(parseUsd('0.0000001'));
    expect(unitsFromUsdNumber(1.5e-10)).toBe(parseUsd('0.00000000015'));
    expect(unitsFromUsdNumber(1e21)).toBe(parseUsd('1000000000000000000000'));
    expect(plainDecimal('1.25e+2')).toBe('125');
    expect(plainDecimal('-3e-2')).toBe('-0.03');
    expect(plainDecimal('12.5')).toBe('12.5');
  });

  it('more than 24 decimal places and non-finite numbers are refused, never rounded', () => {
    expect(() => unitsFromUsdNumber(1e-25)).toThrow(RangeError);
    expect(() => unitsFromUsdNumber(Number.NaN)).toThrow(RangeError);
    expect(() => unitsFromUsdNumber(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('a negative number keeps its sign (the caller refuses it)', () => {
    expect(unitsFromUsdNumber(-1)).toBe(-parseUsd('1'));
  });
});

describe('USD amounts rendered as JSON numbers (usage.cost)', () => {
  it('give the number nearest the exact amount: the one its decimal form parses to', () => {
    const amounts = ['0', '0.000021', '0.1', '2.675', '-0.03', '123456789.123456789123456789123456', '0.000000000000000000000001', '9007199254740993', '0.30000000000000004'];
    for (const amount of amounts) expect(toUsdNumber(parseUsd(amount))).toBe(Number(formatUsd(parseUsd(amount))));
    expect(toUsdNumber(parseUsd('0.000021'))).toBe(0.000021);
    expect(toUsdNumber(parseUsd('-0.03'))).toBe(-0.03);
    expect(toUsdNumber(0n)).toBe(0);
  });
});
