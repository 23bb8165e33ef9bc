import { Type, type Static } from '@sinclair/typebox';
import { REASONING_EFFORTS } from '../../catalogue/types.js';
import { IdentifierString, ModelsSchema, ProviderPreferencesSchema, RouteAlias } from '../shared/routing-schema.js';
import { ChatMessageSchema, ToolChoiceSchema, ToolSchema } from './message-schema.js';

const literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((value) => Type.Literal(value)));

const Ceiling = Type.Integer({ minimum: 1, maximum: 1_048_576 });
const Effort = literals(REASONING_EFFORTS);

const ResponseFormat = Type.Union([
  Type.Object({ type: Type.Literal('text') }),
  Type.Object({ type: Type.Literal('json_object') }),
  Type.Object({ type: Type.Literal('json_schema'), json_schema: Type.Optional(Type.Object({}, { additionalProperties: true })) }, { additionalProperties: true }),
]);

const ImageConfig = Type.Object(
  {
    n: Type.Optional(Type.Integer({ minimum: 1 })),
    resolution: Type.Optional(Type.String()),
    aspect_ratio: Type.Optional(Type.String()),
    size: Type.Optional(Type.String()),
    quality: Type.Optional(Type.String()),
    output_format: Type.Optional(Type.String()),
    background: Type.Optional(Type.String()),
    seed: Type.Optional(Type.Integer()),
  },
  { additionalProperties: false },
);

/** The body of POST /chat/completions (spec 01). Unknown members are accepted and not forwarded. */
export const ChatRequestSchema = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    models: Type.Optional(ModelsSchema),
    messages: Type.Array(ChatMessageSchema, { minItems: 1 }),
    stream: Type.Optional(Type.Boolean()),
    store: Type.Optional(Type.Boolean()),
    enable_thinking: Type.Optional(Type.Boolean()),
    stream_options: Type.Optional(Type.Object(
      { include_usage: Type.Optional(Type.Boolean()), include_tool_dispatch: Type.Optional(Type.Boolean()) },
      { additionalProperties: true },
    )),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    top_p: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1 })),
    top_k: Type.Optional(Type.Integer({ minimum: -1 })),
    min_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_a: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    frequency_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
    presence_penalty: Type.Optional(Type.Number({ minimum: -2, maximum: 2 })),
    repetition_penalty: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 2 })),
    seed: Type.Optional(Type.Integer()),
    stop: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String(), { maxItems: 8 })])),
    max_tokens: Type.Optional(Ceiling),
    max_completion_tokens: Type.Optional(Ceiling),
    // A key that is not a token id is refused by the decoder, naming it (logit-bias.ts).
    logit_bias: Type.Optional(Type.Record(Type.String({ pattern: '^\\d+$' }), Type.Number({ minimum: -100, maximum: 100 }))),
    logprobs: Type.Optional(Type.Boolean()),
    top_logprobs: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
    response_format: Type.Optional(ResponseFormat),
    structured_outputs: Type.Optional(Type.Boolean()),
    tools: Type.Optional(Type.Array(ToolSchema, { maxItems: 1536 })),
    tool_choice: Type.Optional(ToolChoiceSchema),
    parallel_tool_calls: Type.Optional(Type.Boolean()),
    reasoning: Type.Optional(Type.Object(
      {
        effort: Type.Optional(Effort),
        max_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
        exclude: Type.Optional(Type.Boolean()),
        enabled: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: false },
    )),
    reasoning_effort: Type.Optional(Effort),
    include_reasoning: Type.Optional(Type.Boolean()),
    verbosity: Type.Optional(literals(['low', 'medium', 'high'] as const)),
    n: Type.Optional(Type.Integer({ minimum: 1, maximum: 1 })),
    user: Type.Optional(IdentifierString),
    session_id: Type.Optional(IdentifierString),
    prompt_cache_key: Type.Optional(IdentifierString),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    modalities: Type.Optional(Type.Array(literals(['text', 'image', 'audio'] as const))),
    image_config: Type.Optional(ImageConfig),
    audio: Type.Optional(Type.Object(
      { voice: Type.String({ minLength: 1 }), format: literals(['wav', 'mp3', 'flac', 'opus', 'pcm16', 'aac'] as const) },
      { additionalProperties: false },
    )),
    provider: Type.Optional(ProviderPreferencesSchema),
    route: Type.Optional(RouteAlias),
    transforms: Type.Optional(Type.Array(Type.String())),
    plugins: Type.Optional(Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true }))),
    usage: Type.Optional(Type.Object({ include: Type.Optional(Type.Boolean()) }, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

export type ChatRequestBody = Static<typeof ChatRequestSchema>;
