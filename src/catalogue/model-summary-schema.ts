import { Type } from '@sinclair/typebox';
import { PRICE_KEYS, REASONING_EFFORTS } from './types.js';

const UsdPrice = Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', description: 'Exact decimal USD per unit' });
const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const NullableString = Type.Union([Type.String(), Type.Null()]);
const Strings = Type.Array(Type.String());
const ClockTime = Type.Integer({ minimum: 0, maximum: 2359, description: 'UTC HHMM as a number (0600 is 600)' });

const prices = Object.fromEntries(PRICE_KEYS.map((key) => [key, Type.Optional(UsdPrice)]));

/** Charged prices with `discount` and the condition-bound `overrides`; a key is present only when declared (spec 02). */
export const PricingSchema = Type.Object({
  ...prices,
  discount: Type.Number({ description: 'Fraction taken off list: list = price / (1 - discount); 0 when nothing, negative when above list' }),
  overrides: Type.Optional(Type.Array(Type.Object({
    ...prices,
    min_prompt_tokens: Type.Optional(Type.Integer({ minimum: 0, description: 'Applies when the prompt is strictly longer' })),
    utc_start: Type.Optional(ClockTime),
    utc_end: Type.Optional(ClockTime),
    utc_days: Type.Optional(Type.Array(Type.String({ description: 'Lowercase day name' }))),
  }))),
});

/** The declared reasoning controls (`reasoning` of the summary and of an endpoint entry). */
export const ReasoningControlsSchema = Type.Object({
  supported_efforts: Type.Optional(Type.Array(Type.Union(REASONING_EFFORTS.map((effort) => Type.Literal(effort))), { description: 'Strongest first' })),
  mandatory: Type.Optional(Type.Literal(false, { description: 'Present only when an off control exists' })),
  default_effort: Type.Optional(Type.String()),
  default_enabled: Type.Optional(Type.Boolean()),
  supports_max_tokens: Type.Optional(Type.Literal(true, { description: 'A thinking budget is declared' })),
});

/** The weights repository's own statements, as last read; a fact it does not state is absent. */
const HubSchema = Type.Object({
  id: Type.String(),
  read_at: Type.String(),
  availability: Type.Optional(Type.String()),
  languages: Type.Optional(Strings),
  papers: Type.Optional(Strings),
  datasets: Type.Optional(Strings),
  weights_revision: Type.Optional(Type.String()),
  weights_updated_at: Type.Optional(Type.String()),
  downloads: Type.Optional(Type.Integer({ minimum: 0 })),
  likes: Type.Optional(Type.Integer({ minimum: 0 })),
  evaluations: Type.Optional(Type.Array(Type.Object({ dataset: Type.String(), metric: Type.String(), value: Type.Number() }))),
});

/** `architecture` of a summary and of the endpoint listing. */
export const ArchitectureSchema = Type.Object({
  modality: Type.String({ description: 'e.g. `text->text`' }),
  input_modalities: Strings,
  output_modalities: Strings,
  tokenizer: NullableString,
  instruct_type: Type.Null(),
});

/** `family` of a summary and of the endpoint listing; null for a model in no family. */
export const FamilyRefSchema = Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]);

/** The members of the catalogue model summary of spec 02, in its order (model-summary.ts builds it). */
const summaryMembers = {
  id: Type.String({ description: '`<author>/<slug>`, the value passed as `model`' }),
  canonical_slug: Type.String({ description: 'Equal to `id`' }),
  hub_id: Type.Union([Type.String(), Type.Null()], { description: 'Public weights repository id; null when unpublished' }),
  hub: Type.Optional(HubSchema),
  name: Type.String(),
  created: Type.Integer({ description: 'Release date, Unix seconds' }),
  expiration_date: Type.Union([Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }), Type.Null()]),
  description: NullableString,
  context_length: NullableInteger,
  architecture: ArchitectureSchema,
  pricing: PricingSchema,
  top_provider: Type.Object({ context_length: NullableInteger, max_completion_tokens: NullableInteger, is_moderated: Type.Literal(false) }),
  per_request_limits: Type.Null(),
  supported_parameters: Type.Array(Type.String(), { description: 'Sorted union over live endpoints' }),
  reasoning: Type.Optional(ReasoningControlsSchema),
  default_parameters: Type.Object({
    temperature: Type.Optional(Type.Number()),
    top_p: Type.Optional(Type.Number()),
    top_k: Type.Optional(Type.Number()),
    repetition_penalty: Type.Optional(Type.Number()),
  }),
  family: FamilyRefSchema,
  author: Type.String({ description: 'Weights creator' }),
  tags: Strings,
  endpoint_count: Type.Integer({ minimum: 1, description: 'Live endpoints' }),
  links: Type.Object({ details: Type.String({ description: 'Path of the endpoints listing' }) }),
  supported_voices: Type.Union([Strings, Type.Null()]),
  supported_dimensions: Type.Union([Type.Array(Type.Integer({ minimum: 1 })), Type.Null()]),
  supported_languages: Type.Union([Strings, Type.Null()]),
};

/** The catalogue model summary of spec 02 (`GET /models` entries). */
export const ModelSummarySchema = Type.Object(summaryMembers);

/** `GET /models/<author>%2F<slug>`: the summary as a bare object, as client SDKs read a model. */
export const SdkModelSchema = Type.Object({
  ...summaryMembers,
  object: Type.Literal('model'),
  owned_by: Type.String({ description: 'Equal to `author`' }),
});

/** A `GET /speech/models` record: the summary plus what the model's live speech endpoints declare. */
export const SpeechModelSchema = Type.Object({
  ...summaryMembers,
  speech: Type.Object({
    voices: Strings,
    formats: Strings,
    min_speed: Type.Optional(Type.Number({ description: 'Present together with max_speed, or both absent' })),
    max_speed: Type.Optional(Type.Number()),
  }),
});
