import { Type, type TSchema } from '@sinclair/typebox';
import { ArchitectureSchema, FamilyRefSchema, PricingSchema, ReasoningControlsSchema } from '../model-summary-schema.js';
import { REASONING_EFFORTS } from '../types.js';

const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const Strings = Type.Array(Type.String());
const nullable = (schema: TSchema) => Type.Union([schema, Type.Null()]);

/** A count of samples: 0 when the window was scanned and held none, null when not computed. */
const Samples = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]);
const Percent = nullable(Type.Number({ minimum: 0, maximum: 100 }));
const Percentiles = nullable(Type.Object({ p50: Type.Number(), p75: Type.Number(), p90: Type.Number(), p99: Type.Number() }));

/** A measured figure (null until its gate is met, never 0) and `<name>_samples` beside it. */
function gated(name: string, figure: TSchema, description: string): Record<string, TSchema> {
  return { [name]: { ...figure, description }, [`${name}_samples`]: Samples };
}

const ParameterDescriptorSchema = Type.Object({
  type: Type.Union([Type.Literal('boolean'), Type.Literal('integer'), Type.Literal('number'), Type.Literal('string')]),
  minimum: Type.Optional(Type.Number()),
  maximum: Type.Optional(Type.Number()),
  enum: Type.Optional(Type.Array(Type.Union([Type.String(), Type.Number()]))),
});

const declarations = {
  reference_inputs: nullable(Type.Object({ audio: Type.Object({ formats: Strings, roles: Strings, max_bytes: NullableInteger }) })),
  render_parameters: nullable(Type.Record(Type.String(), Type.Record(Type.String(), ParameterDescriptorSchema), { description: 'Descriptors by output modality, then parameter name' })),
  image_envelope: nullable(Type.Object({ sizes: Strings, formats: Strings, max_images: NullableInteger })),
  video_envelope: nullable(Type.Object({ frame: Type.String(), max_seconds: Type.Number(), frame_step: NullableInteger, audio: Type.Boolean() })),
  mesh_envelope: nullable(Type.Object({ max_faces: Type.Integer(), min_faces: NullableInteger, texture: Type.Boolean() })),
  speech_envelope: nullable(Type.Object({
    voices: Strings,
    default_voice: NullableString,
    codecs: Strings,
    min_speed: nullable(Type.Number()),
    max_speed: nullable(Type.Number()),
    max_new_tokens: NullableInteger,
  })),
  reasoning: nullable(ReasoningControlsSchema),
  video_generation: Type.Null(),
};

const figures = {
  ...gated('uptime_last_5m', Percent, 'Percent success; null below 10 counted attempts'),
  ...gated('uptime_last_30m', Percent, 'Percent success; null below 10 counted attempts'),
  ...gated('uptime_last_1d', Percent, 'Percent success; null below 10 counted attempts'),
  ...gated('uptime_last_7d', Percent, 'Percent success; null below 10 counted attempts'),
  ttft_last_30m: { ...Percentiles, description: 'Seconds to first token of streams; null below 5 samples' },
  ttft_last_1d: Percentiles,
  response_last_30m: { ...Percentiles, description: 'Whole-request seconds; null below 5 samples' },
  response_last_1d: Percentiles,
  ...gated('latency_last_30m', Percentiles, 'Alias of ttft_last_30m'),
  ...gated('throughput_last_1d', Percentiles, 'Completion tokens per second over streams of at least 16 completion tokens; null below 5'),
  ...gated('throughput_last_30m', Percentiles, 'As throughput_last_1d over 30 minutes, five-stream gate, floor percentiles'),
  perf_last_30m_by_workload: Type.Null(),
  ...gated('render_timing', nullable(Type.Object({ fixed_seconds: Type.Number(), seconds_per_megapixel: Type.Number() })), 'Null until at least 2 sizes and 5 renders'),
  render_timing_sizes: Samples,
};

/** One entry of the endpoint listing (spec 02 "Endpoint entry"; endpoint-entry.ts builds it), in its order. */
export const EndpointEntrySchema = Type.Object({
  name: Type.String(),
  model_id: Type.String(),
  model_name: Type.String(),
  provider_name: Type.String(),
  provider_slug: Type.String(),
  provider_id: Type.String({ description: 'Survives slug renames' }),
  tag: Type.String({ description: 'Provider slug, or slug/quantization' }),
  context_length: NullableInteger,
  max_completion_tokens: NullableInteger,
  max_prompt_tokens: NullableInteger,
  quantization: NullableString,
  supported_parameters: Strings,
  input_modalities: Type.Array(Type.String(), { description: 'Declared inputs less those whose latest check failed' }),
  declared_input_modalities: Strings,
  capability_qualification: Type.Record(Type.String(), Type.Object({ passed: Type.Boolean(), checked_at: Type.String({ description: 'ISO 8601 instant' }) }), {
    description: 'Latest check by capability (`tools`, `structured_outputs`, `tool_call_dispatch`, `reasoning_none`, `reasoning_effort:<level>`, `input:<modality>`); untested capabilities are absent',
  }),
  ...declarations,
  refuted_reasoning_efforts: Type.Array(Type.Union(REASONING_EFFORTS.map((effort) => Type.Literal(effort))), {
    description: 'Declared levels routing filters: refuted by a check of this serving revision and probe version under 24 hours old',
  }),
  pricing: PricingSchema,
  status: Type.Union([Type.Literal(0), Type.Literal(-1)], { description: '0 when healthy, else -1' }),
  ...figures,
  supports_tool_choice: Type.Boolean(),
  supports_voice_cloning: Type.Boolean(),
  supports_implicit_caching: Type.Boolean(),
  health: Type.Union([Type.Literal('healthy'), Type.Literal('degraded')]),
  compliance: Type.Object({ zdr: Type.Boolean(), zdr_status: NullableString, hipaa: Type.Boolean() }),
  data_policy: Type.Object({ training: Type.Boolean(), retention_days: NullableInteger }),
  datacenters: Type.Array(Type.Object({ country_code: Type.String() })),
  ...gated('tool_call_success_1d', Percent, 'Percent of tool-call answers that were well-formed calls'),
  ...gated('runaway_rate_1d', Percent, 'Percent of streams cut by the output ceiling without a natural stop'),
  benchmarks: Type.Array(Type.Object({ dataset: Type.String(), score: Type.Number(), sample_count: NullableInteger })),
  capacity: nullable(Type.Object({ current: Type.Integer({ minimum: 0 }), total: Type.Integer({ minimum: 1 }), updated_at: Type.String() })),
});

/** `GET /models/{author}/{slug}/endpoints` inside `{data}`: the model and its live endpoints (endpoint-listing.ts). */
export const EndpointListingSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  created: Type.Integer(),
  description: NullableString,
  architecture: ArchitectureSchema,
  family: FamilyRefSchema,
  endpoints: Type.Array(EndpointEntrySchema, { description: 'By provider slug, then charged price (cheapest first)' }),
  benchmarks_note: Type.String(),
});
