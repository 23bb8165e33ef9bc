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
 * Bodies judged within the limit that are worth not walking again. An inference body is judged as
 * the HTTP server parses it and again as its dialect admits it (which also admits bodies that came
 * another way: a batch's lines); for a large body (200 tools are about 1,400 objects) the second
 * judgement is a lookup. A body's objects are not changed once parsed but to drop members.
 */
const withinLimit = new WeakSet<object>();
/** Objects and arrays a body holds from which it is remembered; below, walking it again costs less. */
const REMEMBERED_FROM = 32;
const PAST_LIMIT = -1;

/**
 * Refuses (400 naming the path) a body nesting deeper than the limit. Recursion goes no deeper than
 * the limit itself, so a body of any depth is judged without exhausting the call stack. The walk
 * that judges allocates nothing (arrays by index, objects with `for…in`: a parsed body's objects
 * have no enumerable inherited members); the path, walked the same way, is looked for only once a
 * body is refused.
 */
export function assertBodyDepth(body: unknown): void {
  if (typeof body !== 'object' || body === null || withinLimit.has(body)) return;
  const objects = objectsWithin(body, 1, MAX_BODY_DEPTH);
  if (objects >= REMEMBERED_FROM) withinLimit.add(body);
  if (objects !== PAST_LIMIT) return;
  throw invalidRequest(abbreviatedPath(pathPastLimit(body, 1, MAX_BODY_DEPTH) ?? []), `nested deeper than ${MAX_BODY_DEPTH} levels`);
}

/** The objects and arrays `value` (at level `depth`) holds, itself included; PAST_LIMIT where one nests past `limit`. */
function objectsWithin(value: unknown, depth: number, limit: number): number {
  if (typeof value !== 'object' || value === null) return 0;
  if (depth > limit) return PAST_LIMIT;
  let objects = 1;
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      const below = objectsWithin(value[index], depth + 1, limit);
      if (below === PAST_LIMIT) return PAST_LIMIT;
      objects += below;
    }
    return objects;
  }
  for (const key in value) {
    const below = objectsWithin((value as Record<string, unknown>)[key], depth + 1, limit);
    if (below === PAST_LIMIT) return PAST_LIMIT;
    objects += below;
  }
  return objects;
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
  // the same members as `objectsWithin` walks, so the path it refused is always found
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
