import { invalidRequest } from '../../core/errors.js';

/**
 * How deeply a request body may nest objects and arrays; the body itself is level 1. Generous for any
 * real tool schema or metadata, and low enough that nothing reading the body (schema checks, token
 * estimates, records, replies) can run out of stack.
 */
export const MAX_BODY_DEPTH = 128;

/** Path segments shown before a too-deep path is cut short. */
const SHOWN_SEGMENTS = 6;

/**
 * Refuses (400 naming the path) a body nesting deeper than the limit. Recursion goes no deeper than
 * the limit itself, so a body of any depth is judged without exhausting the call stack. The walk
 * that judges allocates nothing (arrays by index, objects with `for…in`: a parsed body's objects
 * have no enumerable inherited members); the path, walked the same way, is looked for only once a
 * body is refused.
 */
export function assertBodyDepth(body: unknown, limit = MAX_BODY_DEPTH): void {
  if (!nestsPastLimit(body, 1, limit)) return;
  throw invalidRequest(abbreviatedPath(pathPastLimit(body, 1, limit) ?? []), `nested deeper than ${limit} levels`);
}

/** Whether `value` (at level `depth`) holds an object or array nested past `limit`. */
function nestsPastLimit(value: unknown, depth: number, limit: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  if (depth > limit) return true;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) if (nestsPastLimit(value[index], depth + 1, limit)) return true;
    return false;
  }
  for (const key in value) if (nestsPastLimit((value as Record<string, unknown>)[key], depth + 1, limit)) return true;
  return false;
}

/** The keys from `value` (at level `depth`) down to the first object or array nested past `limit`; null where none is. */
function pathPastLimit(value: unknown, depth: number, limit: number): string[] | null {
  if (typeof value !== 'object' || value === null) return null;
  if (depth > limit) return [];
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const below = pathPastLimit(value[index], depth + 1, limit);
      if (below) return [String(index), ...below];
    }
    return null;
  }
  // the same members as `nestsPastLimit` walks, so the path it refused is always found
  for (const key in value) {
    const below = pathPastLimit((value as Record<string, unknown>)[key], depth + 1, limit);
    if (below) return [key, ...below];
  }
  return null;
}

/** `metadata.a.a.a.a.a…` for a path below the body: the first segments, then an ellipsis. */
function abbreviatedPath(keys: readonly string[]): string {
  const shown = keys
    .slice(0, SHOWN_SEGMENTS)
    .map((key, position) => (/^\d+$/.test(key) ? `[${key}]` : position === 0 ? key : `.${key}`))
    .join('');
  return keys.length > SHOWN_SEGMENTS ? `${shown}…` : shown;
}
