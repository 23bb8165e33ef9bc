import type { Catalogue } from '../types.js';
import { summaryOf } from './listed-model.js';
import { listingOf } from './listing-snapshot.js';

/** `GET /embeddings/models` records: the summary of every model with a live endpoint serving embeddings. */
export function embeddingsModelRecords(catalogue: Catalogue): Record<string, unknown>[] {
  return listingOf(catalogue).models.filter((listed) => listed.outputs.has('embeddings')).map(summaryOf);
}
