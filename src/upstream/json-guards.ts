/** Small guards for reading upstream JSON without schema-validating every chunk. */

import { isPlainObject } from '../core/plain-object.js';

export { isPlainObject };

export type JsonObject = Record<string, unknown>;

export function stringOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : undefined;
}

export function objectOf(value: unknown): JsonObject | undefined {
  return isPlainObject(value) ? value : undefined;
}

export function arrayOf(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
