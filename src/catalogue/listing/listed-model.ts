import type { Units } from '../../billing/money.js';
import type { Catalogue, EndpointEntry, ModelEntry } from '../types.js';
import { liveEndpoints, summaryEndpoint } from './live-endpoints.js';
import { modelSummary } from './model-summary.js';

/**
 * A served model with its summary rendered once as JSON text (a list is written by joining these),
 * and the facts its filters and sort read.
 */
export interface ListedModel {
  model: ModelEntry;
  live: readonly EndpointEntry[];
  json: string;
  /** Prompt-token price of the summary endpoint (the sort's price); undefined when undeclared. */
  summaryPromptUnits: Units | undefined;
  /** The summary endpoint's context window (the summary's `context_length`). */
  summaryContext: number | null;
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

/** A model's summary as JSON text, when it was rendered elsewhere (by the thread that read the file). */
export type RenderedSummary = (model: ModelEntry) => string | undefined;

/** Every model with at least one live endpoint, newest first (then by id). */
export function listedModels(catalogue: Catalogue): ListedModel[] {
  return [...eachListedModel(catalogue)].sort(newestFirst);
}

/**
 * The same models one at a time, in the catalogue's order, so a caller can pause between them;
 * a summary `rendered` already is taken as it is.
 */
export function* eachListedModel(catalogue: Catalogue, rendered: RenderedSummary = () => undefined): Generator<ListedModel> {
  for (const model of catalogue.models.values()) {
    const live = liveEndpoints(model);
    if (live.length > 0) yield listModel(model, live, rendered(model));
  }
}

const summaries = new WeakMap<ListedModel, Record<string, unknown>>();

/**
 * The summary of a listed model as an object (one model's reply, the records built on it), read
 * back from its text on first use: the listing keeps text only, so thousands of summaries are not
 * kept twice.
 */
export function summaryOf(listed: ListedModel): Record<string, unknown> {
  let summary = summaries.get(listed);
  if (!summary) {
    summary = JSON.parse(listed.json) as Record<string, unknown>;
    summaries.set(listed, summary);
  }
  return summary;
}

/** The listing's order: newest first, then by id. */
export function newestFirst(a: ListedModel, b: ListedModel): number {
  return b.model.created - a.model.created || (a.model.id < b.model.id ? -1 : a.model.id > b.model.id ? 1 : 0);
}

function listModel(model: ModelEntry, live: readonly EndpointEntry[], json = JSON.stringify(modelSummary(model))): ListedModel {
  const cheapest = summaryEndpoint(live);
  return {
    model,
    live,
    json,
    summaryPromptUnits: cheapest?.pricing.prices.prompt?.units,
    summaryContext: cheapest?.contextLength ?? null,
    maxContext: Math.max(...live.map((endpoint) => endpoint.contextLength)),
    parameters: new Set(live.flatMap((endpoint) => [...endpoint.supportedParameters])),
    inputs: new Set(live.flatMap((endpoint) => endpoint.inputModalities)),
    outputs: new Set(live.flatMap((endpoint) => endpoint.outputModalities)),
    providers: new Set(live.map((endpoint) => endpoint.provider.slug)),
    datacenters: new Set(live.flatMap((endpoint) => endpoint.provider.datacenters.map((datacenter) => datacenter.toLowerCase()))),
    searchText: [model.id.toLowerCase(), model.name.toLowerCase()],
  };
}
