import { isDecimalString, parseUsd, type Units } from '../../billing/money.js';
import { invalidRequest } from '../../core/errors.js';

/**
 * Readers of one query parameter's text; each refuses a malformed value with a 400 naming the
 * parameter. A parameter given twice is refused: which one was meant cannot be told.
 */
export function single(name: string, value: unknown): string {
  if (Array.isArray(value)) throw invalidRequest(name, 'must be given once');
  if (typeof value !== 'string' || value.trim() === '') throw invalidRequest(name, 'must not be empty');
  return value.trim();
}

/** A comma list; empty items are dropped, but at least one must remain. */
export function commaList(name: string, value: unknown): string[] {
  const items = single(name, value).split(',').map((item) => item.trim()).filter((item) => item !== '');
  if (items.length === 0) throw invalidRequest(name, 'must name at least one value');
  return items;
}

export function integer(name: string, value: unknown, bounds: { min: number; max?: number }): number {
  const text = single(name, value);
  const number = /^-?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(number)) throw invalidRequest(name, 'must be an integer');
  if (number < bounds.min || (bounds.max !== undefined && number > bounds.max)) {
    throw invalidRequest(name, bounds.max === undefined ? `must be at least ${bounds.min}` : `must be from ${bounds.min} to ${bounds.max}`);
  }
  return number;
}

/** A finite number within bounds (a percentage, say). */
export function number(name: string, value: unknown, bounds: { min: number; max: number }): number {
  const text = single(name, value);
  const parsed = /^-?(\d+\.?\d*|\.\d+)$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isFinite(parsed)) throw invalidRequest(name, 'must be a number');
  if (parsed < bounds.min || parsed > bounds.max) throw invalidRequest(name, `must be from ${bounds.min} to ${bounds.max}`);
  return parsed;
}

export function boolean(name: string, value: unknown): boolean {
  const text = single(name, value);
  if (text === 'true') return true;
  if (text === 'false') return false;
  throw invalidRequest(name, 'must be true or false');
}

export function choice<T extends string>(name: string, value: unknown, options: readonly T[]): T {
  const text = single(name, value);
  const found = options.find((option) => option === text);
  if (found === undefined) throw invalidRequest(name, `must be one of ${options.join(', ')}`);
  return found;
}

/** A non-negative exact decimal of USD, in 10^-24 USD units; exponent forms are refused. */
export function usd(name: string, value: unknown): Units {
  const text = single(name, value);
  if (!isDecimalString(text) || text.startsWith('-')) throw invalidRequest(name, 'must be a non-negative decimal such as 0.5');
  try {
    return parseUsd(text);
  } catch {
    throw invalidRequest(name, 'has more than 24 decimal places');
  }
}
