import { invalidRequest } from '../../core/errors.js';
import type { Static } from '@sinclair/typebox';
import type { ProviderPreferences, SortPartition } from '../../core/request.js';
import type { ProviderPreferencesSchema } from './routing-schema.js';
import { priceCeilings } from './price-ceilings.js';

export type ProviderBody = Static<typeof ProviderPreferencesSchema>;

/**
 * The `provider` member (schema-checked: unknown keys were refused) in core form. `route` is the
 * deprecated alias of `sort.partition` (`fallback` = model, `sort` = none); an explicit partition wins.
 */
export function readProviderPreferences(body: ProviderBody | undefined, route?: 'fallback' | 'sort'): ProviderPreferences | undefined {
  if (!body && !route) return undefined;
  const preferences: ProviderPreferences = {};
  if (body) copyLists(body, preferences);
  const sort = body?.sort;
  const by = typeof sort === 'string' ? sort : sort?.by;
  if (by) preferences.sort = by;
  const partition = (typeof sort === 'object' ? sort.partition : undefined) ?? route;
  if (partition) preferences.partition = normalisePartition(partition);
  if (body?.max_price) preferences.maxPrice = priceCeilings(body.max_price);
  return preferences;
}

function copyLists(body: ProviderBody, preferences: ProviderPreferences): void {
  if (body.only) preferences.only = body.only;
  if (body.ignore) preferences.ignore = body.ignore;
  if (body.order) preferences.order = body.order;
  if (body.allow_fallbacks !== undefined) preferences.allowFallbacks = body.allow_fallbacks;
  if (body.require_parameters !== undefined) preferences.requireParameters = body.require_parameters;
  if (body.data_collection) preferences.dataCollection = body.data_collection;
  if (body.zdr !== undefined) preferences.zdr = body.zdr;
  if (body.quantizations) preferences.quantizations = body.quantizations;
  if (body.options) preferences.options = body.options;
}

function normalisePartition(value: string): SortPartition {
  return value === 'none' || value === 'sort' ? 'none' : 'model';
}

/** `provider` as a multipart form carries it: a JSON-encoded object, read back into the body's member. */
export function parseFormProvider(value: unknown): unknown {
  try {
    if (typeof value !== 'string') throw new TypeError('not text');
    const parsed: unknown = JSON.parse(value);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new TypeError('not an object');
    return parsed;
  } catch {
    throw invalidRequest('provider', 'must be a JSON-encoded object');
  }
}
