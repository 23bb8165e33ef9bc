import { chargedPricesForDisplay } from '../../billing/pricing.js';
import type { Gated, MeasuredFigures } from '../../stats/endpoint-figures.js';
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
  return {
    ...identity(model, endpoint),
    context_length: endpoint.contextLength,
    max_completion_tokens: endpoint.maxCompletionTokens,
    max_prompt_tokens: endpoint.listing.maxPromptTokens,
    quantization: endpoint.quantization,
    supported_parameters: [...endpoint.supportedParameters].sort(),
    input_modalities: endpoint.inputModalities.filter((modality) => state.verdict(endpoint.id, `input_modality:${modality}`) !== 'fail'),
    declared_input_modalities: endpoint.inputModalities,
    capability_qualification: qualification(endpoint, state),
    ...declarations(endpoint),
    refuted_reasoning_efforts: refutedEfforts(endpoint, state),
    pricing: chargedPricesForDisplay(endpoint.pricing),
    status: healthy ? 0 : -1,
    ...figureMembers(state.figuresOf(endpoint.id)),
    supports_tool_choice: endpoint.supportedParameters.has('tool_choice'),
    supports_voice_cloning: endpoint.supportsVoiceCloning,
    supports_implicit_caching: endpoint.listing.supportsImplicitCaching,
    health: healthy ? 'healthy' : 'degraded',
    compliance: { zdr: endpoint.provider.compliance.zdr, zdr_status: endpoint.provider.compliance.zdrStatus, hipaa: endpoint.provider.compliance.hipaa },
    data_policy: { training: endpoint.provider.dataPolicy.training, retention_days: endpoint.provider.dataPolicy.retentionDays },
    datacenters: endpoint.provider.datacenters.map((country_code) => ({ country_code })),
    ...gated('tool_call_success_1d', state.figuresOf(endpoint.id).toolCallSuccess1d),
    ...gated('runaway_rate_1d', state.figuresOf(endpoint.id).runawayRate1d),
    benchmarks: endpoint.listing.benchmarks,
    capacity: endpoint.listing.capacity,
  };
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
  for (const observation of state.observations(endpoint.id)) {
    observed[observation.capability] = { passed: observation.passed, checked_at: new Date(observation.at).toISOString() };
  }
  return observed;
}

function declarations(endpoint: EndpointEntry): Record<string, unknown> {
  const speech = endpoint.speechEnvelope;
  const reference = endpoint.referenceInputs;
  return {
    reference_inputs: reference
      ? { audio: { formats: reference.audio.formats, roles: reference.audio.roles, max_bytes: reference.audio.maxBytes } }
      : null,
    render_parameters: null,
    image_envelope: endpoint.listing.imageEnvelope,
    video_envelope: endpoint.listing.videoEnvelope,
    mesh_envelope: endpoint.listing.meshEnvelope,
    speech_envelope: speech
      ? { voices: speech.voices, default_voice: speech.defaultVoice, codecs: speech.codecs, min_speed: speech.minSpeed, max_speed: speech.maxSpeed, max_new_tokens: speech.maxNewTokens }
      : null,
    reasoning: endpoint.reasoning ? reasoningRecord(endpoint.reasoning) : null,
    video_generation: null,
  };
}

/** Declared effort levels whose latest check refuted them (`none` by its own check of the reply channel). */
function refutedEfforts(endpoint: EndpointEntry, state: EndpointStateView): ReasoningEffort[] {
  return (endpoint.reasoning?.supportedEfforts ?? []).filter((effort) =>
    state.verdict(endpoint.id, `reasoning_effort:${effort}`) === 'fail' || (effort === 'none' && state.verdict(endpoint.id, 'reasoning_none') === 'fail'));
}

function gated<T>(name: string, figure: Gated<T>): Record<string, unknown> {
  return { [name]: figure.value, [`${name}_samples`]: figure.samples };
}

function figureMembers(figures: MeasuredFigures): Record<string, unknown> {
  return {
    ...gated('uptime_last_5m', figures.uptime.last5m),
    ...gated('uptime_last_30m', figures.uptime.last30m),
    ...gated('uptime_last_1d', figures.uptime.last1d),
    ...gated('uptime_last_7d', figures.uptime.last7d),
    ttft_last_30m: figures.ttft.last30m.value,
    ttft_last_1d: figures.ttft.last1d.value,
    response_last_30m: figures.response.last30m.value,
    response_last_1d: figures.response.last1d.value,
    ...gated('latency_last_30m', figures.ttft.last30m),
    ...gated('throughput_last_1d', figures.throughput.last1d),
    ...gated('throughput_last_30m', figures.throughput.last30m),
    perf_last_30m_by_workload: null,
    ...gated('render_timing', figures.renderTiming),
    render_timing_sizes: figures.renderTiming.sizes,
  };
}
