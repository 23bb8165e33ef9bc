import { chargedPricesForDisplay } from '../billing/pricing.js';
import type { EndpointEntry, ModelEntry, ReasoningDomain } from './types.js';

/** The model's live endpoints: those the operator has not disabled. */
export function liveEndpoints(model: ModelEntry): EndpointEntry[] {
  return model.endpoints.filter((endpoint) => !endpoint.disabled);
}

/**
 * The endpoint a summary describes: the lowest charged prompt-token price, then completion-token
 * price, then endpoint id; an undeclared price sorts after every declared one.
 */
export function summaryEndpoint(endpoints: readonly EndpointEntry[]): EndpointEntry | undefined {
  return [...endpoints].sort((a, b) => comparePrice(a, b, 'prompt') || comparePrice(a, b, 'completion') || a.id.localeCompare(b.id))[0];
}

function comparePrice(a: EndpointEntry, b: EndpointEntry, key: 'prompt' | 'completion'): number {
  const left = a.pricing.prices[key]?.units;
  const right = b.pricing.prices[key]?.units;
  if (left === undefined || right === undefined) return left === right ? 0 : left === undefined ? 1 : -1;
  return left < right ? -1 : left > right ? 1 : 0;
}

/**
 * The spec's catalogue model summary (`GET /models` entries) over the model's live endpoints.
 * Unknown facts are null (hub, tokenizer, dimensions, languages); `hub` is absent without a reading.
 */
export function modelSummary(model: ModelEntry, basePath = '/api/v1'): Record<string, unknown> {
  const live = liveEndpoints(model);
  const summary = summaryEndpoint(live);
  const inputs = union(live.map((endpoint) => endpoint.inputModalities));
  const outputs = union(live.map((endpoint) => endpoint.outputModalities));
  const voices = union(live.map((endpoint) => endpoint.speechEnvelope?.voices ?? []));
  const record: Record<string, unknown> = {
    id: model.id,
    canonical_slug: model.id,
    hub_id: null,
    name: model.name,
    created: model.created,
    expiration_date: model.expirationDate,
    description: model.description,
    context_length: summary?.contextLength ?? null,
    architecture: { modality: `${inputs.join('+')}->${outputs.join('+')}`, input_modalities: inputs, output_modalities: outputs, tokenizer: null, instruct_type: null },
    pricing: summary ? chargedPricesForDisplay(summary.pricing) : { discount: '0' },
    top_provider: { context_length: summary?.contextLength ?? null, max_completion_tokens: summary?.maxCompletionTokens ?? null, is_moderated: false },
    per_request_limits: null,
    supported_parameters: union(live.map((endpoint) => [...endpoint.supportedParameters])).sort(),
    default_parameters: {},
    family: model.family === null ? null : { id: model.family, name: model.family },
    author: model.author,
    tags: model.tags,
    endpoint_count: live.length,
    links: { details: `${basePath}/models/${model.id}/endpoints` },
    supported_voices: live.some((endpoint) => endpoint.speechEnvelope) ? voices : null,
    supported_dimensions: embeddingWidths(live),
    supported_languages: null,
  };
  if (summary?.reasoning) record.reasoning = reasoningRecord(summary.reasoning);
  return record;
}

function reasoningRecord(domain: ReasoningDomain): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  if (domain.supportedEfforts) record.supported_efforts = domain.supportedEfforts;
  if (domain.mandatory === false) record.mandatory = false;
  if (domain.defaultEffort) record.default_effort = domain.defaultEffort;
  if (domain.defaultEnabled !== undefined) record.default_enabled = domain.defaultEnabled;
  if (domain.supportsMaxTokens) record.supports_max_tokens = true;
  return record;
}

/** Widths a `dimensions` request may name, from the cheapest embeddings endpoint; null when it declares none. */
function embeddingWidths(live: readonly EndpointEntry[]): number[] | null {
  const widths = summaryEndpoint(live.filter((endpoint) => endpoint.outputModalities.includes('embeddings')))?.supportedDimensions;
  return widths ? [...widths] : null;
}

/** Distinct values in first-seen order. */
export function union<T>(lists: readonly (readonly T[])[]): T[] {
  return [...new Set(lists.flat())];
}
