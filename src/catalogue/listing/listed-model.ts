import type { Units } from '../../billing/money.js';
import type { Catalogue, EndpointEntry, ModelEntry } from '../types.js';
import { liveEndpoints, summaryEndpoint } from './live-endpoints.js';
import { modelSummary } from './model-summary.js';

/** A served model with its summary rendered once, and the facts its filters and sort read. */
export interface ListedModel {
  model: ModelEntry;
  live: readonly EndpointEntry[];
  summary: Record<string, unknown>;
  /** `summary` as JSON text, so a list is written without serialising it again. */
  json: string;
  /** Prompt-token price of the summary endpoint (the sort's price); undefined when undeclared. */
  summaryPromptUnits: Units | undefined;
  /** The largest context window among live endpoints. */
  maxContext: number;
  parameters: ReadonlySet<string>;
  inputs: ReadonlySet<string>;
  outputs: ReadonlySet<string>;
  providers: ReadonlySet<string>;
  /** Declared datacenters of the live endpoints' providers, lowercased. */
  datacenters: ReadonlySet<string>;
  /** Lowercased id and name, for `q`. */
  searchText: readonly string[];
}

/** Every model with at least one live endpoint, newest first (then by id). */
export function listedModels(catalogue: Catalogue): ListedModel[] {
  return [...eachListedModel(catalogue)].sort(newestFirst);
}

/** The same models one at a time, in the catalogue's order, so a caller can pause between them. */
export function* eachListedModel(catalogue: Catalogue): Generator<ListedModel> {
  for (const model of catalogue.models.values()) {
    const live = liveEndpoints(model);
    if (live.length > 0) yield listModel(model, live);
  }
}

/** The listing's order: newest first, then by id. */
export function newestFirst(a: ListedModel, b: ListedModel): number {
  return b.model.created - a.model.created || (a.model.id < b.model.id ? -1 : a.model.id > b.model.id ? 1 : 0);
}

function listModel(model: ModelEntry, live: readonly EndpointEntry[]): ListedModel {
  const summary = modelSummary(model);
  return {
    model,
    live,
    summary,
    json: JSON.stringify(summary),
    summaryPromptUnits: summaryEndpoint(live)?.pricing.prices.prompt?.units,
    maxContext: Math.max(...live.map((endpoint) => endpoint.contextLength)),
    parameters: new Set(live.flatMap((endpoint) => [...endpoint.supportedParameters])),
    inputs: new Set(live.flatMap((endpoint) => endpoint.inputModalities)),
    outputs: new Set(live.flatMap((endpoint) => endpoint.outputModalities)),
    providers: new Set(live.map((endpoint) => endpoint.provider.slug)),
    datacenters: new Set(live.flatMap((endpoint) => endpoint.provider.datacenters.map((datacenter) => datacenter.toLowerCase()))),
    searchText: [model.id.toLowerCase(), model.name.toLowerCase()],
  };
}
