import type { RenderedListing } from './listing/listing-snapshot.js';
import type { SettingsPatch } from '../settings/settings-table.js';
import type { CatalogueProblem, ModelEntry, ProviderEntry } from './types.js';

/**
 * The messages a catalogue read in a worker thread is handed back in. A valid file comes as its
 * head (providers, settings), then its models in batches the reading thread asks for one at a time
 * (`NEXT_BATCH`), so taking each batch in is a short task of its own between requests served, and
 * last the listing's text, rendered there too.
 */
export type HandoverMessage =
  | { kind: 'refused'; problems: CatalogueProblem[] }
  | { kind: 'head'; providers: ProviderEntry[]; settings: SettingsPatch; loadedAt: number }
  | { kind: 'models'; models: ModelEntry[] }
  | { kind: 'end'; listing: RenderedListing };

/** What the worker is started with. */
export interface HandoverRequest {
  text: string;
  origin: string;
  loadedAt: number;
}

export const NEXT_BATCH = 'next';

/** About how many endpoints one batch carries: a few milliseconds to take in. */
const ENDPOINTS_PER_BATCH = 150;

/** The models in batches of about ENDPOINTS_PER_BATCH endpoints, a model never split. */
export function* modelBatches(models: Iterable<ModelEntry>): Generator<ModelEntry[]> {
  let batch: ModelEntry[] = [];
  let endpoints = 0;
  for (const model of models) {
    batch.push(model);
    endpoints += Math.max(1, model.endpoints.length);
    if (endpoints >= ENDPOINTS_PER_BATCH) {
      yield batch;
      batch = [];
      endpoints = 0;
    }
  }
  if (batch.length > 0) yield batch;
}

/**
 * Points every endpoint of a received model at the one entry of its provider: a copy made for the
 * message is replaced by the snapshot's own, as in a catalogue read on this thread.
 */
export function relinkProviders(model: ModelEntry, providers: ReadonlyMap<string, ProviderEntry>): void {
  for (const endpoint of model.endpoints) endpoint.provider = providers.get(endpoint.provider.slug) ?? endpoint.provider;
}
