import { parseUsd, type Units } from './money.js';

const EXPONENT_FORM = /^(-?)(\d+)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * A USD amount that arrived as a JSON number, as exact units: read through the shortest decimal
 * form that names the same number (`String(value)`, what the sender wrote for any amount a person
 * types: 0.1 is "0.1", 1e-7 is "0.0000001"), never through float arithmetic. Throws RangeError for
 * a non-finite number or one with more than 24 decimal places.
 */
export function unitsFromUsdNumber(value: number): Units {
  if (!Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return parseUsd(plainDecimal(String(value)));
}

/** `1.5e-7` → `0.00000015`, `1e+21` → `1000000000000000000000`; plain forms unchanged. */
export function plainDecimal(text: string): string {
  const match = EXPONENT_FORM.exec(text);
  if (!match) return text;
  const [, sign = '', whole = '', fraction = '', exponentText = '0'] = match;
  const digits = whole + fraction;
  const point = whole.length + Number(exponentText);
  if (point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${sign}${digits}${'0'.repeat(point - digits.length)}`;
  return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
}
