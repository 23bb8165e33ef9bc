import { timeSlices } from '../time-slices.js';
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
/** Summaries joined in one step when the whole list is written ahead of time. */
const JOIN_CHUNK = 250;

/**
 * The listing of `catalogue`, rendered on first use (unless `prepareListing` rendered it before)
 * and kept while the snapshot is current: a reload swaps the snapshot, so the old listing goes with
 * the old snapshot. Nothing here reads measured figures, so they never make it stale.
 */
export function listingOf(catalogue: Catalogue): ListingSnapshot {
  const known = snapshots.get(catalogue);
  if (known) return known;
  const models = listedModels(catalogue);
  return keep(catalogue, models, listBody(models, wholeListFrame(models)));
}

/**
 * Renders the listing of `catalogue` ahead of its first read, in slices of about SLICE_MS with a
 * turn of the event loop between them: rendering thousands of summaries, or joining them into the
 * whole list, at once would hold up the requests in flight for a good part of a second.
 */
export async function prepareListing(catalogue: Catalogue): Promise<void> {
  if (snapshots.has(catalogue)) return;
  const slices = timeSlices(SLICE_MS);
  const models: ListedModel[] = [];
  for (const listed of eachListedModel(catalogue)) {
    models.push(listed);
    await slices.pause();
  }
  models.sort(newestFirst);
  const parts: string[] = [];
  for (let start = 0; start < models.length; start += JOIN_CHUNK) {
    parts.push(models.slice(start, start + JOIN_CHUNK).map((listed) => listed.json).join(','));
    await slices.pause();
  }
  if (!snapshots.has(catalogue)) keep(catalogue, models, frameBody(parts.join(','), wholeListFrame(models)));
}

function keep(catalogue: Catalogue, models: readonly ListedModel[], wholeList: string): ListingSnapshot {
  const snapshot: ListingSnapshot = { models, byId: new Map(models.map((listed) => [listed.model.id, listed])), wholeList };
  snapshots.set(catalogue, snapshot);
  return snapshot;
}

function wholeListFrame(models: readonly ListedModel[]): ListFrame {
  return { totalCount: models.length, next: null };
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
  return frameBody(models.map((listed) => listed.json).join(','), frame);
}

/** The list around `data`, the summaries' JSON text already joined by commas. */
function frameBody(data: string, frame: ListFrame): string {
  const unsupported = frame.unsupportedFilters ? `,"unsupported_filters":${JSON.stringify(frame.unsupportedFilters)}` : '';
  return `{"data":[${data}]${unsupported},"total_count":${frame.totalCount},"links":{"next":${JSON.stringify(frame.next)}}}`;
}
