import { performance } from 'node:perf_hooks';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Catalogue } from '../types.js';
import { eachListedModel, listedModels, newestFirst, type ListedModel } from './listed-model.js';

/** What the catalogue reads answer from, built once per catalogue snapshot. */
export interface ListingSnapshot {
  /** Served models, newest first. */
  models: readonly ListedModel[];
  byId: ReadonlyMap<string, ListedModel>;
  /** The reply of `GET /models` without any query, as JSON text. */
  wholeList: string;
}

const snapshots = new WeakMap<Catalogue, ListingSnapshot>();

/** The longest a slice of `prepareListing` runs before letting other work in. */
const SLICE_MS = 8;

/**
 * The listing of `catalogue`, rendered on first use (unless `prepareListing` rendered it before)
 * and kept while the snapshot is current: a reload swaps the snapshot, so the old listing goes with
 * the old snapshot. Nothing here reads measured figures, so they never make it stale.
 */
export function listingOf(catalogue: Catalogue): ListingSnapshot {
  return snapshots.get(catalogue) ?? keep(catalogue, listedModels(catalogue));
}

/**
 * Renders the listing of `catalogue` ahead of its first read, in slices of about SLICE_MS with a
 * turn of the event loop between them: rendering thousands of summaries at once would hold up
 * the requests in flight for a good part of a second.
 */
export async function prepareListing(catalogue: Catalogue): Promise<void> {
  if (snapshots.has(catalogue)) return;
  const listed: ListedModel[] = [];
  let sliceStart = performance.now();
  for (const model of eachListedModel(catalogue)) {
    listed.push(model);
    if (performance.now() - sliceStart < SLICE_MS) continue;
    await nextTurn();
    sliceStart = performance.now();
  }
  if (!snapshots.has(catalogue)) keep(catalogue, listed.sort(newestFirst));
}

function keep(catalogue: Catalogue, models: readonly ListedModel[]): ListingSnapshot {
  const snapshot: ListingSnapshot = {
    models,
    byId: new Map(models.map((listed) => [listed.model.id, listed])),
    wholeList: listBody(models, { totalCount: models.length, next: null }),
  };
  snapshots.set(catalogue, snapshot);
  return snapshot;
}

export interface ListFrame {
  totalCount: number;
  /** Path of the next page; null on the last one. */
  next: string | null;
  unsupportedFilters?: readonly string[];
}

/**
 * `{data: [summary], total_count, links: {next}}` as JSON text, joined from the summaries' own text.
 * `total_count` (the filtered count before `limit`/`offset`) and `links.next` are what the hosted
 * marketplace's clients read beside `data`.
 */
export function listBody(models: readonly ListedModel[], frame: ListFrame): string {
  const unsupported = frame.unsupportedFilters ? `,"unsupported_filters":${JSON.stringify(frame.unsupportedFilters)}` : '';
  return `{"data":[${models.map((listed) => listed.json).join(',')}]${unsupported},"total_count":${frame.totalCount},"links":{"next":${JSON.stringify(frame.next)}}}`;
}
