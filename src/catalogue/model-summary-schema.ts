import { Type } from '@sinclair/typebox';
import { PRICE_KEYS } from './types.js';

const UsdPrice = Type.String({ pattern: '^-?\\d+(\\.\\d+)?$', description: 'Exact decimal USD per unit' });

const prices = Object.fromEntries(PRICE_KEYS.map((key) => [key, Type.Optional(UsdPrice)]));

/** Charged prices with `discount`; a key is present only when declared (spec 02). */
const PricingSchema = Type.Object({
  ...prices,
  discount: UsdPrice,
  overrides: Type.Optional(Type.Array(Type.Object({
    ...prices,
    min_prompt_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
    utc_start: Type.Optional(Type.String()),
    utc_end: Type.Optional(Type.String()),
    utc_days: Type.Optional(Type.Array(Type.String())),
  }))),
});

const NullableInteger = Type.Union([Type.Integer(), Type.Null()]);
const Strings = Type.Array(Type.String());

/** The catalogue model summary of spec 02 (model-summary.ts builds it); members may grow. */
export const ModelSummarySchema = Type.Object({
  id: Type.String({ description: '`<author>/<slug>`, the value passed as `model`' }),
  canonical_slug: Type.String(),
  hub_id: Type.Union([Type.String(), Type.Null()]),
  name: Type.String(),
  created: Type.Integer({ description: 'Release date, Unix seconds' }),
  expiration_date: Type.Union([Type.String(), Type.Null()]),
  description: Type.Union([Type.String(), Type.Null()]),
  context_length: NullableInteger,
  architecture: Type.Object({
    modality: Type.String({ description: 'e.g. `text->text`' }),
    input_modalities: Strings,
    output_modalities: Strings,
    tokenizer: Type.Union([Type.String(), Type.Null()]),
    instruct_type: Type.Null(),
  }),
  pricing: PricingSchema,
  top_provider: Type.Object({ context_length: NullableInteger, max_completion_tokens: NullableInteger, is_moderated: Type.Boolean() }),
  per_request_limits: Type.Null(),
  supported_parameters: Strings,
  reasoning: Type.Optional(Type.Object({
    supported_efforts: Type.Optional(Strings),
    mandatory: Type.Optional(Type.Literal(false)),
    default_effort: Type.Optional(Type.String()),
    default_enabled: Type.Optional(Type.Boolean()),
    supports_max_tokens: Type.Optional(Type.Literal(true)),
  })),
  default_parameters: Type.Record(Type.String(), Type.Number()),
  family: Type.Union([Type.Object({ id: Type.String(), name: Type.String() }), Type.Null()]),
  author: Type.String(),
  tags: Strings,
  endpoint_count: Type.Integer({ minimum: 0 }),
  links: Type.Object({ details: Type.String() }),
  supported_voices: Type.Union([Strings, Type.Null()]),
  supported_dimensions: Type.Union([Type.Array(Type.Integer({ minimum: 1 })), Type.Null()]),
  supported_languages: Type.Union([Strings, Type.Null()]),
});

/** A `GET /speech/models` record: the summary plus what the model's live speech endpoints declare. */
export const SpeechModelSchema = Type.Intersect([ModelSummarySchema, Type.Object({
  speech: Type.Object({
    voices: Strings,
    formats: Strings,
    min_speed: Type.Optional(Type.Number({ description: 'Present together with max_speed, or both absent' })),
    max_speed: Type.Optional(Type.Number()),
  }),
})]);
