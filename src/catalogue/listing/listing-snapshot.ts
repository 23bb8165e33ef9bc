import type { Catalogue } from '../types.js';
import { listedModels, type ListedModel } from './listed-model.js';

/** What the catalogue reads answer from, built once per catalogue snapshot. */
export interface ListingSnapshot {
  /** Served models, newest first. */
  models: readonly ListedModel[];
  byId: ReadonlyMap<string, ListedModel>;
  /** The reply of `GET /models` without any query, as JSON text. */
  wholeList: string;
}

const snapshots = new WeakMap<Catalogue, ListingSnapshot>();

/**
 * The listing of `catalogue`, rendered on first use and kept while the snapshot is current: a reload
 * swaps the snapshot, so the next read renders the new one and the old listing goes with the old
 * snapshot. Nothing here reads measured figures, so they never make it stale.
 */
export function listingOf(catalogue: Catalogue): ListingSnapshot {
  let snapshot = snapshots.get(catalogue);
  if (!snapshot) {
    const models = listedModels(catalogue);
    snapshot = {
      models,
      byId: new Map(models.map((listed) => [listed.model.id, listed])),
      wholeList: listBody(models, { totalCount: models.length, next: null }),
    };
    snapshots.set(catalogue, snapshot);
  }
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
