import type { EndpointStateView } from './endpoint-state-view.js';
import { endpointEntry } from './endpoint-entry.js';
import { summaryOf, type ListedModel } from './listed-model.js';
import { byChargedPrice } from './live-endpoints.js';

export const BENCHMARKS_NOTE = 'Benchmark scores are stated by the operator in the catalogue, with their dataset and sample count; this service does not run them.';

/**
 * `GET /models/:author/:slug/endpoints`: the model's identity and its live endpoints, ordered by
 * provider slug and, within a provider, by charged price (cheapest first).
 */
export function endpointListing(listed: ListedModel, state: EndpointStateView): Record<string, unknown> {
  const { model } = listed;
  const summary = summaryOf(listed);
  const ordered = [...listed.live].sort((a, b) => (a.provider.slug < b.provider.slug ? -1 : a.provider.slug > b.provider.slug ? 1 : byChargedPrice(a, b)));
  return {
    id: model.id,
    name: model.name,
    created: model.created,
    description: model.description,
    architecture: summary.architecture,
    family: summary.family,
    endpoints: ordered.map((endpoint) => endpointEntry(model, endpoint, state)),
    benchmarks_note: BENCHMARKS_NOTE,
  };
}
