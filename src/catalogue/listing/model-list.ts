import type { ListingSnapshot } from './listing-snapshot.js';
import { listBody } from './listing-snapshot.js';
import { filterModels, type FilterContext } from './model-filters.js';
import { asksWholeList, type ModelQuery } from './model-query.js';
import { sortModels } from './model-sort.js';

/** Everything `links.next` needs to name the next page: the path and the query as sent. */
export interface PageAddress {
  path: string;
  query: Readonly<Record<string, unknown>>;
}

/**
 * The reply of a model list as JSON text: filtered (AND), sorted, then cut by `offset` and `limit`.
 * Any accepted-but-not-computed filter empties the list and is named in `unsupported_filters`. The
 * whole list is the snapshot's own text.
 */
export function modelListBody(snapshot: ListingSnapshot, query: ModelQuery, context: FilterContext, address: PageAddress): string {
  if (query.unsupportedFilters.length > 0) {
    return listBody([], { totalCount: 0, next: null, unsupportedFilters: query.unsupportedFilters });
  }
  if (asksWholeList(query)) return snapshot.wholeList.text;
  const matching = sortModels(filterModels(snapshot.models, query, context), query.sort);
  const end = query.limit === undefined ? matching.length : query.offset + query.limit;
  const next = end < matching.length ? nextPage(address, end) : null;
  return listBody(matching.slice(query.offset, end), { totalCount: matching.length, next });
}

function nextPage(address: PageAddress, offset: number): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(address.query)) {
    if (name !== 'offset' && typeof value === 'string') search.set(name, value);
  }
  search.set('offset', String(offset));
  return `${address.path}?${search.toString()}`;
}
