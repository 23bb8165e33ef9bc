import type { Units } from '../../billing/money.js';
import { invalidRequest } from '../../core/errors.js';
import { ownEntry } from '../../core/own-entry.js';
import { boolean, choice, commaList, integer, number, single, usd } from './query-values.js';

export const MODEL_SORTS = ['newest', 'oldest', 'price-low-to-high', 'price-high-to-low', 'context-high-to-low'] as const;
export type ModelSort = (typeof MODEL_SORTS)[number];

/** The hosted marketplace's clients spell the price orders `pricing-…`; both spellings are read. */
export const SORT_ALIASES: Readonly<Record<string, ModelSort>> = { 'pricing-low-to-high': 'price-low-to-high', 'pricing-high-to-low': 'price-high-to-low' };

/** Filters the spec accepts without computing them: the reply is then empty and names them. */
export const UNSUPPORTED_FILTERS = [
  'category', 'arch', 'distillable', 'min_intelligence_index', 'max_intelligence_index', 'min_coding_index', 'max_coding_index',
  'min_agentic_index', 'max_agentic_index',
] as const;

/** Largest page `limit` names. */
export const MAX_LIMIT = 1000;

/** Price bounds in 10^-24 USD per million tokens, compared exactly. */
export interface PriceBounds {
  min?: Units;
  max?: Units;
}

/** `GET /models` query, read and checked. Every present filter narrows the list (AND). */
export interface ModelQuery {
  family?: string;
  q?: string;
  supportedParameters?: string[];
  inputModalities?: string[];
  outputModalities?: string[];
  context?: number;
  promptPrice?: PriceBounds;
  completionPrice?: PriceBounds;
  providers?: string[];
  modelAuthors?: string[];
  zdr?: boolean;
  regions?: string[];
  ageDays?: { min?: number; max?: number };
  toolSuccessRate?: { min?: number; max?: number };
  sort: ModelSort;
  limit?: number;
  offset: number;
  /** Accepted-but-not-computed filters that were sent, in the order sent. */
  unsupportedFilters: string[];
}

type Reader = (query: ModelQuery, value: unknown, name: string) => void;

const bound = (name: string) => (name.startsWith('min_') ? 'min' : 'max');

const READERS: Readonly<Record<string, Reader>> = {
  family: (query, value, name) => { query.family = single(name, value); },
  q: (query, value, name) => { query.q = single(name, value).toLowerCase(); },
  supported_parameters: (query, value, name) => { query.supportedParameters = commaList(name, value); },
  input_modalities: (query, value, name) => { query.inputModalities = commaList(name, value); },
  output_modalities: (query, value, name) => { query.outputModalities = commaList(name, value); },
  context: (query, value, name) => { query.context = integer(name, value, { min: 0 }); },
  min_price: (query, value, name) => { (query.promptPrice ??= {})[bound(name)] = usd(name, value); },
  max_price: (query, value, name) => { (query.promptPrice ??= {})[bound(name)] = usd(name, value); },
  min_output_price: (query, value, name) => { (query.completionPrice ??= {})[bound(name)] = usd(name, value); },
  max_output_price: (query, value, name) => { (query.completionPrice ??= {})[bound(name)] = usd(name, value); },
  providers: (query, value, name) => { query.providers = commaList(name, value); },
  model_authors: (query, value, name) => { query.modelAuthors = commaList(name, value).map((author) => author.toLowerCase()); },
  zdr: (query, value, name) => { query.zdr = boolean(name, value); },
  region: (query, value, name) => { query.regions = commaList(name, value).map((region) => region.toLowerCase()); },
  min_age_days: (query, value, name) => { (query.ageDays ??= {}).min = integer(name, value, { min: 0 }); },
  max_age_days: (query, value, name) => { (query.ageDays ??= {}).max = integer(name, value, { min: 0 }); },
  min_tool_success_rate: (query, value, name) => { (query.toolSuccessRate ??= {}).min = number(name, value, { min: 0, max: 100 }); },
  max_tool_success_rate: (query, value, name) => { (query.toolSuccessRate ??= {}).max = number(name, value, { min: 0, max: 100 }); },
  sort: (query, value, name) => { query.sort = ownEntry(SORT_ALIASES, single(name, value)) ?? choice(name, value, MODEL_SORTS); },
  limit: (query, value, name) => { query.limit = integer(name, value, { min: 1, max: MAX_LIMIT }); },
  offset: (query, value, name) => { query.offset = integer(name, value, { min: 0 }); },
};

/** The parameters `GET /models` reads (beside the accepted-but-not-computed ones). */
export const MODEL_QUERY_PARAMETERS: readonly string[] = Object.keys(READERS);

/** The parameters of the unfiltered lists. */
export const PAGE_PARAMETERS = ['limit', 'offset'] as const;

const PAGE_ONLY = new Set<string>(PAGE_PARAMETERS);

/**
 * Reads the query of `GET /models` (or, with `pageOnly`, of the unfiltered lists, which take only
 * `limit` and `offset`). An unknown or malformed parameter is a 400 naming it; an accepted-but-not-
 * computed one is recorded, its value unread.
 */
export function readModelQuery(raw: Readonly<Record<string, unknown>>, options: { pageOnly?: boolean } = {}): ModelQuery {
  const query: ModelQuery = { sort: 'newest', offset: 0, unsupportedFilters: [] };
  for (const [name, value] of Object.entries(raw)) {
    if (!options.pageOnly && (UNSUPPORTED_FILTERS as readonly string[]).includes(name)) {
      query.unsupportedFilters.push(name);
      continue;
    }
    const reader = options.pageOnly && !PAGE_ONLY.has(name) ? undefined : ownEntry(READERS, name);
    if (!reader) throw invalidRequest(name, 'unknown query parameter');
    reader(query, value, name);
  }
  checkOrder('min_price', query.promptPrice);
  checkOrder('min_output_price', query.completionPrice);
  checkOrder('min_age_days', query.ageDays);
  checkOrder('min_tool_success_rate', query.toolSuccessRate);
  return query;
}

function checkOrder<T extends number | bigint>(name: string, bounds: { min?: T; max?: T } | undefined): void {
  if (bounds?.min !== undefined && bounds.max !== undefined && bounds.min > bounds.max) {
    throw invalidRequest(name, `must not exceed ${name.replace(/^min_/, 'max_')}`);
  }
}

/** True when the query asks for the whole list as it stands: no filter, the default order, no page. */
export function asksWholeList(query: ModelQuery): boolean {
  const { sort, offset, unsupportedFilters, ...filters } = query;
  return sort === 'newest' && offset === 0 && unsupportedFilters.length === 0 && Object.values(filters).every((value) => value === undefined);
}

/** Routes that read no query refuse any parameter, naming the first. */
export function refuseQuery(raw: Readonly<Record<string, unknown>>): void {
  const [name] = Object.keys(raw);
  if (name !== undefined) throw invalidRequest(name, 'unknown query parameter');
}
