import { liveEndpoints, modelSummary } from './model-summary.js';
import type { Catalogue } from './types.js';

/** `GET /embeddings/models` records: the summary of every model with a live endpoint serving embeddings. */
export function embeddingsModelRecords(catalogue: Catalogue): Record<string, unknown>[] {
  const records: Record<string, unknown>[] = [];
  for (const model of catalogue.models.values()) {
    if (liveEndpoints(model).some((endpoint) => endpoint.outputModalities.includes('embeddings'))) records.push(modelSummary(model));
  }
  return records;
}
