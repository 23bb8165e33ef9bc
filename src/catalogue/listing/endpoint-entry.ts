import { chargedPricesForDisplay } from '../../billing/pricing.js';
import { effortRefutation, withheld } from '../../core/capability-checks.js';
import { servingRevision } from '../serving-revision.js';
import { NOT_COMPUTED, type Gated, type MeasuredFigures } from '../../stats/endpoint-figures.js';
import type { EndpointEntry, ModelEntry, ReasoningEffort } from '../types.js';
import type { EndpointStateView } from './endpoint-state-view.js';
import { reasoningRecord } from './model-summary.js';

/**
 * One entry of the endpoint listing, member by member in the spec's order: identity, limits,
 * declarations, prices, then the measured figures (null until gated, `_samples` beside them) and
 * the provider's facts.
 */
export function endpointEntry(model: ModelEntry, endpoint: EndpointEntry, state: EndpointStateView): Record<string, unknown> {
  const healthy = state.isHealthy(endpoint.id);
  const figures = state.figuresOf(endpoint.id);
  const { provider } = endpoint;
  const entry: Record<string, unknown> = identity(model, endpoint);
  entry.context_length = endpoint.contextLength;
  entry.max_completion_tokens = endpoint.maxCompletionTokens;
  entry.max_prompt_tokens = endpoint.listing.maxPromptTokens;
  entry.quantization = endpoint.quantization;
  entry.supported_parameters = [...endpoint.supportedParameters].sort();
  entry.input_modalities = endpoint.inputModalities.filter((modality) => !withheld(state.verdicts, endpoint.id, `input:${modality}`));
  entry.declared_input_modalities = endpoint.inputModalities;
  entry.capability_qualification = qualification(endpoint, state);
  addDeclarations(entry, endpoint);
  entry.refuted_reasoning_efforts = refutedEfforts(endpoint, state);
  entry.pricing = chargedPricesForDisplay(endpoint.pricing);
  entry.status = healthy ? 0 : -1;
  addFigures(entry, figures, endpoint.outputModalities.includes('image'));
  entry.supports_tool_choice = endpoint.supportedParameters.has('tool_choice');
  entry.supports_voice_cloning = endpoint.supportsVoiceCloning;
  entry.supports_implicit_caching = endpoint.listing.supportsImplicitCaching;
  entry.health = healthy ? 'healthy' : 'degraded';
  entry.compliance = { zdr: provider.compliance.zdr, zdr_status: provider.compliance.zdrStatus, hipaa: provider.compliance.hipaa };
  entry.data_policy = { training: provider.dataPolicy.training, retention_days: provider.dataPolicy.retentionDays };
  entry.datacenters = provider.datacenters.map((country_code) => ({ country_code }));
  addGated(entry, 'tool_call_success_1d', figures.toolCallSuccess1d);
  addGated(entry, 'runaway_rate_1d', figures.runawayRate1d);
  entry.benchmarks = endpoint.listing.benchmarks;
  entry.capacity = endpoint.listing.capacity;
  return entry;
}

function identity(model: ModelEntry, endpoint: EndpointEntry): Record<string, unknown> {
  const { provider } = endpoint;
  return {
    name: `${provider.name} | ${model.id}`,
    model_id: model.id,
    model_name: model.name,
    provider_name: provider.name,
    provider_slug: provider.slug,
    provider_id: provider.id,
    tag: endpoint.quantization === null ? provider.slug : `${provider.slug}/${endpoint.quantization}`,
  };
}

/** The latest check of each tested capability; untested capabilities are absent. */
function qualification(endpoint: EndpointEntry, state: EndpointStateView): Record<string, unknown> {
  const observed: Record<string, unknown> = {};
  for (const observation of state.verdicts.observations(endpoint.id)) {
    observed[observation.capability] = { passed: observation.passed, checked_at: new Date(observation.at).toISOString() };
  }
  return observed;
}

function addDeclarations(entry: Record<string, unknown>, endpoint: EndpointEntry): void {
  const speech = endpoint.speechEnvelope;
  const reference = endpoint.referenceInputs;
  entry.reference_inputs = reference
    ? {
      ...(reference.audio && { audio: { formats: reference.audio.formats, roles: reference.audio.roles, max_bytes: reference.audio.maxBytes } }),
      ...(reference.image && { image: { formats: reference.image.formats, roles: reference.image.roles, max_bytes: reference.image.maxBytes, max_count: reference.image.maxCount } }),
    }
    : null;
  entry.render_parameters = endpoint.listing.renderParameters;
  entry.image_envelope = endpoint.listing.imageEnvelope;
  entry.video_envelope = endpoint.listing.videoEnvelope;
  entry.mesh_envelope = endpoint.listing.meshEnvelope;
  entry.speech_envelope = speech
    ? { voices: speech.voices, default_voice: speech.defaultVoice, codecs: speech.codecs, min_speed: speech.minSpeed, max_speed: speech.maxSpeed, max_new_tokens: speech.maxNewTokens }
    : null;
  entry.reasoning = endpoint.reasoning ? reasoningRecord(endpoint.reasoning) : null;
  entry.video_generation = null;
}

/**
 * Declared effort levels refuted as routing filters them: by a failed check of this serving revision
 * and probe version under 24 hours old (`none` by its own check of the reply channel, withheld until
 * a later check passes).
 */
function refutedEfforts(endpoint: EndpointEntry, state: EndpointStateView): ReasoningEffort[] {
  const served = { id: endpoint.id, revision: servingRevision(endpoint) };
  const now = Date.now();
  return (endpoint.reasoning?.supportedEfforts ?? []).filter((effort) => effort === 'none'
    ? withheld(state.verdicts, endpoint.id, 'reasoning_none') !== undefined
    : effortRefutation(state.verdicts, served, effort, now) !== undefined);
}

/** A figure and, beside it, the samples it was computed from. */
function addGated<T>(entry: Record<string, unknown>, name: string, figure: Gated<T>): void {
  entry[name] = figure.value;
  entry[`${name}_samples`] = figure.samples;
}

/** Render timing is measured for endpoints rendering pictures; elsewhere it is not computed (null, samples null). */
function addFigures(entry: Record<string, unknown>, figures: MeasuredFigures, renders: boolean): void {
  addGated(entry, 'uptime_last_5m', figures.uptime.last5m);
  addGated(entry, 'uptime_last_30m', figures.uptime.last30m);
  addGated(entry, 'uptime_last_1d', figures.uptime.last1d);
  addGated(entry, 'uptime_last_7d', figures.uptime.last7d);
  entry.ttft_last_30m = figures.ttft.last30m.value;
  entry.ttft_last_1d = figures.ttft.last1d.value;
  entry.response_last_30m = figures.response.last30m.value;
  entry.response_last_1d = figures.response.last1d.value;
  addGated(entry, 'latency_last_30m', figures.ttft.last30m);
  addGated(entry, 'throughput_last_1d', figures.throughput.last1d);
  addGated(entry, 'throughput_last_30m', figures.throughput.last30m);
  entry.perf_last_30m_by_workload = null;
  const timing = renders ? figures.renderTiming : NOT_COMPUTED.renderTiming;
  addGated(entry, 'render_timing', timing);
  entry.render_timing_sizes = timing.sizes;
}
