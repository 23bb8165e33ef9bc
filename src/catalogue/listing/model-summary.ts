import { chargedPricesForDisplay } from '../../billing/pricing.js';
import type { EndpointEntry, ModelEntry, ReasoningDomain } from '../types.js';
import { liveEndpoints, SPEECH_PRICES, summaryEndpoint, union } from './live-endpoints.js';

export const API_BASE_PATH = '/api/v1';

/**
 * The spec's catalogue model summary (`GET /models` entries), member by member in the spec's order,
 * over the model's live endpoints. The context window, tokenizer, prices and controls come from the
 * one summary endpoint (the cheapest); unions are over every live endpoint. `hub` is present only
 * with a reading, `reasoning` only with a declared domain.
 */
export function modelSummary(model: ModelEntry, basePath = API_BASE_PATH): Record<string, unknown> {
  const live = liveEndpoints(model);
  const summary = summaryEndpoint(live);
  const inputs = union(live.map((endpoint) => endpoint.inputModalities));
  const outputs = union(live.map((endpoint) => endpoint.outputModalities));
  const record: Record<string, unknown> = { id: model.id, canonical_slug: model.id, hub_id: model.hubId };
  if (model.hub) record.hub = model.hub;
  record.name = model.name;
  record.created = model.created;
  record.expiration_date = model.expirationDate;
  record.description = model.description;
  record.context_length = summary?.contextLength ?? null;
  record.architecture = {
    modality: `${inputs.join('+')}->${outputs.join('+')}`,
    input_modalities: inputs,
    output_modalities: outputs,
    tokenizer: summary?.listing.tokenizer ?? null,
    instruct_type: null,
  };
  record.pricing = summary ? chargedPricesForDisplay(summary.pricing) : { discount: 0 };
  record.top_provider = { context_length: summary?.contextLength ?? null, max_completion_tokens: summary?.maxCompletionTokens ?? null, is_moderated: false };
  record.per_request_limits = null;
  record.supported_parameters = union(live.map((endpoint) => [...endpoint.supportedParameters])).sort();
  if (summary?.reasoning) record.reasoning = reasoningRecord(summary.reasoning);
  record.default_parameters = { ...model.defaultParameters };
  record.family = model.family === null ? null : { id: model.family, name: model.familyName ?? model.family };
  record.author = model.author;
  record.tags = model.tags;
  record.endpoint_count = live.length;
  record.links = { details: `${basePath}/models/${model.id}/endpoints` };
  record.supported_voices = live.some((endpoint) => endpoint.speechEnvelope) ? union(live.map((endpoint) => endpoint.speechEnvelope?.voices ?? [])) : null;
  record.supported_dimensions = embeddingWidths(live);
  record.supported_languages = languages(live);
  return record;
}

/** The declared reasoning controls: `mandatory` only when false (an off control exists). */
export function reasoningRecord(domain: ReasoningDomain): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  if (domain.supportedEfforts) record.supported_efforts = domain.supportedEfforts;
  // `false` means an off control exists: declared so, or effort `none` among the levels
  if (domain.mandatory === false || (domain.mandatory === undefined && domain.supportedEfforts?.includes('none'))) record.mandatory = false;
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

/** Languages of the cheapest transcription or speech endpoint that declares them. */
function languages(live: readonly EndpointEntry[]): string[] | null {
  const speaking = live.filter((endpoint) => endpoint.listing.supportedLanguages !== null
    && (endpoint.outputModalities.includes('speech') || endpoint.outputModalities.includes('transcription')));
  const languages = summaryEndpoint(speaking, SPEECH_PRICES)?.listing.supportedLanguages;
  return languages ? [...languages] : null;
}
