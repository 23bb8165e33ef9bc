import { invalidRequest } from '../core/errors.js';

/** A route's query as it arrived: Fastify's parse, a repeated name as an array. */
export type RawQuery = Readonly<Record<string, unknown>>;

/** Refuses the first parameter not among `known`, naming it. */
export function refuseUnknownParameters(raw: RawQuery, known: readonly string[]): void {
  for (const name of Object.keys(raw)) {
    if (!known.includes(name)) throw invalidRequest(name, 'unknown query parameter');
  }
}

/** The parameter's one value; absent is undefined, a repeated one is a 400 naming it. */
export function queryString(raw: RawQuery, name: string): string | undefined {
  if (!Object.hasOwn(raw, name)) return undefined;
  const value = raw[name];
  if (typeof value !== 'string') throw invalidRequest(name, 'must be given once');
  return value;
}

/** A decimal integer within `min`..`max`; absent is `fallback`. */
export function queryInteger(raw: RawQuery, name: string, bounds: { min: number; max: number; fallback: number }): number {
  const text = queryString(raw, name);
  if (text === undefined) return bounds.fallback;
  const value = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isInteger(value) || value < bounds.min || value > bounds.max) {
    throw invalidRequest(name, `must be an integer from ${bounds.min} to ${bounds.max}`);
  }
  return value;
}

/** `true` or `false`; absent is `fallback`. */
export function queryBoolean(raw: RawQuery, name: string, fallback: boolean): boolean {
  const text = queryString(raw, name);
  if (text === undefined) return fallback;
  if (text !== 'true' && text !== 'false') throw invalidRequest(name, 'must be true or false');
  return text === 'true';
}
