import { PreparedJson } from '../../core/prepared-json.js';
import { timeSlices, type TimeSlices } from '../time-slices.js';
import type { Catalogue, ModelEntry } from '../types.js';
import { eachListedModel, listedModels, newestFirst, type ListedModel, type RenderedSummary } from './listed-model.js';

/** What the catalogue reads answer from, built once per catalogue snapshot. */
export interface ListingSnapshot {
  /** Served models, newest first. */
  models: readonly ListedModel[];
  byId: ReadonlyMap<string, ListedModel>;
  /** The reply of `GET /models` without any query. */
  wholeList: PreparedJson;
}

/**
 * The listing's text rendered by the thread that read the catalogue file, handed over with the
 * catalogue: the whole list, and where each model's summary sits in it.
 */
export interface RenderedListing {
  wholeList: string;
  /** Listed model ids, in the whole list's order. */
  ids: string[];
  /** The summary of `ids[i]` is `wholeList.slice(bounds[2i], bounds[2i + 1])`. */
  bounds: Uint32Array;
}

const snapshots = new WeakMap<Catalogue, ListingSnapshot>();

/**
 * The longest a slice of `prepareListing` runs before letting other work in. A request that
 * arrives during a slice waits for it and for the others that arrived meanwhile, so under load a
 * turn of the event loop lasts about the slice and as much again: with 8 ms slices a reload of
 * 2,000 models held the event loop up 17 ms (median of ten) under load, with 3 ms slices 8 to 12.
 */
const SLICE_MS = 3;
/** Summaries joined in one step when the whole list is written ahead of time. */
const JOIN_CHUNK = 250;
/** What comes before the first summary in the whole list. */
const LIST_OPENING = '{"data":[';

/**
 * The listing of `catalogue`, rendered on first use (unless `prepareListing` rendered it before)
 * and kept while the snapshot is current: a reload swaps the snapshot, so the old listing goes with
 * the old snapshot. Nothing here reads measured figures, so they never make it stale.
 */
export function listingOf(catalogue: Catalogue): ListingSnapshot {
  const known = snapshots.get(catalogue);
  if (known) return known;
  const models = listedModels(catalogue);
  return keep(catalogue, models, new PreparedJson(listBody(models, wholeListFrame(models))));
}

/**
 * Builds the listing of `catalogue` ahead of its first read, in slices of about SLICE_MS with a
 * turn of the event loop between them, and gzips the whole list in zlib's thread pool: rendering
 * thousands of summaries, joining or compressing them at once would hold up the requests in flight
 * for a good part of a second. With `rendered` (the reading thread's text of this catalogue) the
 * summaries and the whole list are taken from it, so this thread only gathers the filters' facts.
 */
export async function prepareListing(catalogue: Catalogue, rendered?: RenderedListing): Promise<void> {
  if (snapshots.has(catalogue)) return;
  const slices = timeSlices(SLICE_MS);
  const models: ListedModel[] = [];
  for (const listed of eachListedModel(catalogue, rendered ? summariesIn(rendered) : undefined)) {
    models.push(listed);
    await slices.pause();
  }
  models.sort(newestFirst);
  const wholeList = rendered?.wholeList ?? await joinWholeList(models, slices);
  const prepared = new PreparedJson(wholeList);
  await prepared.compress();
  if (!snapshots.has(catalogue)) keep(catalogue, models, prepared);
}

/**
 * The listing's text of `catalogue`, as the thread that read the file renders it before handing
 * the catalogue over.
 */
export function renderListing(catalogue: Catalogue): RenderedListing {
  const models = listedModels(catalogue);
  const bounds = new Uint32Array(models.length * 2);
  let at = LIST_OPENING.length;
  models.forEach((listed, index) => {
    bounds[2 * index] = at;
    at += listed.json.length;
    bounds[2 * index + 1] = at;
    at += 1; // the comma
  });
  return { wholeList: listBody(models, wholeListFrame(models)), ids: models.map((listed) => listed.model.id), bounds };
}

/** Each model's summary as a slice of the rendered whole list (which the slice shares, not copies). */
function summariesIn(rendered: RenderedListing): RenderedSummary {
  const indexes = new Map(rendered.ids.map((id, index) => [id, index]));
  return (model: ModelEntry) => {
    const index = indexes.get(model.id);
    if (index === undefined) return undefined;
    return rendered.wholeList.slice(rendered.bounds[2 * index], rendered.bounds[2 * index + 1]);
  };
}

async function joinWholeList(models: readonly ListedModel[], slices: TimeSlices): Promise<string> {
  const parts: string[] = [];
  for (let start = 0; start < models.length; start += JOIN_CHUNK) {
    parts.push(models.slice(start, start + JOIN_CHUNK).map((listed) => listed.json).join(','));
    await slices.pause();
  }
  return frameBody(parts.join(','), wholeListFrame(models));
}

function keep(catalogue: Catalogue, models: readonly ListedModel[], wholeList: PreparedJson): ListingSnapshot {
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
  return `${LIST_OPENING}${data}]${unsupported},"total_count":${frame.totalCount},"links":{"next":${JSON.stringify(frame.next)}}}`;
}
