/**
 * Exact money. Every amount is a bigint in units of 10^-24 USD; decimal strings are parsed
 * once, exactly, and nothing here ever touches a floating-point number except `toUsdNumber`,
 * which renders a settled amount for a reply.
 */

export type Units = bigint;

export const SCALE_DIGITS = 24;
export const UNITS_PER_USD: Units = 10n ** BigInt(SCALE_DIGITS);

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/** True when `text` is a plain decimal string such as "0.0000005" or "12". */
export function isDecimalString(text: unknown): text is string {
  return typeof text === 'string' && DECIMAL.test(text);
}

/**
 * Parses a USD decimal string into units. Digits beyond 10^-24 are refused rather than rounded:
 * a price that cannot be held exactly is a configuration error.
 */
export function parseUsd(text: string): Units {
  const match = DECIMAL.exec(text);
  if (!match) throw new RangeError(`not a decimal string: ${JSON.stringify(text)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const significant = fraction.replace(/0+$/, '');
  if (significant.length > SCALE_DIGITS) {
    throw new RangeError(`more than ${SCALE_DIGITS} decimal places: ${text}`);
  }
  const units = BigInt(whole) * UNITS_PER_USD + BigInt(significant.padEnd(SCALE_DIGITS, '0') || '0');
  return sign ? -units : units;
}

/** Renders units as an exact decimal string, without trailing zeros ("0.0000015", "12"). */
export function formatUsd(units: Units): string {
  const negative = units < 0n;
  const magnitude = negative ? -units : units;
  const whole = magnitude / UNITS_PER_USD;
  const fraction = (magnitude % UNITS_PER_USD).toString().padStart(SCALE_DIGITS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/**
 * The amount as a JSON number for `usage.cost`: the number nearest the exact amount, parsed from its
 * digits scaled by an exponent (as `Number(formatUsd(units))` parses it, without the division and
 * the formatting).
 */
export function toUsdNumber(units: Units): number {
  return Number(`${units}e-${SCALE_DIGITS}`);
}

/** price per unit × count, exact. */
export function times(pricePerUnit: Units, count: number | bigint): Units {
  return pricePerUnit * BigInt(count);
}

/** Multiplies by a decimal fraction given as a string ("1.5" megapixels, "2.25" seconds), rounding up. */
export function timesDecimal(pricePerUnit: Units, quantity: string): Units {
  const scaled = parseUsd(quantity);
  return ceilDiv(pricePerUnit * scaled, UNITS_PER_USD);
}

export function ceilDiv(numerator: bigint, denominator: bigint): bigint {
  if (denominator <= 0n) throw new RangeError('denominator must be positive');
  if (numerator >= 0n) return (numerator + denominator - 1n) / denominator;
  return numerator / denominator;
}

export function minUnits(a: Units, b: Units): Units {
  return a < b ? a : b;
}

export function maxUnits(a: Units, b: Units): Units {
  return a > b ? a : b;
}

/** The sum of stored amounts (integer strings of units). */
export function sumUnits(amounts: Iterable<string>): Units {
  let sum = 0n;
  for (const amount of amounts) sum += BigInt(amount);
  return sum;
}
