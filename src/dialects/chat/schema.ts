import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ModelsSchema, ProviderPreferencesSchema } from '../shared/routing-schema.js';

const ContentPart = Type.Object({ type: Type.String() }, { additionalProperties: true });
const Content = Type.Union([Type.String(), Type.Array(ContentPart), Type.Null()]);

const ToolCall = Type.Object({
  id: Type.String(),
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String(), arguments: Type.String() }),
});

export const ChatMessageSchema = Type.Object(
  {
    role: Type.Union(['system', 'developer', 'user', 'assistant', 'tool'].map((role) => Type.Literal(role))),
    content: Type.Optional(Content),
    name: Type.Optional(Type.String()),
    tool_calls: Type.Optional(Type.Array(ToolCall)),
    tool_call_id: Type.Optional(Type.String()),
    reasoning: Type.Optional(Type.String()),
    reasoning_details: Type.Optional(Type.Array(Type.Unknown())),
    refusal: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

export const ToolSchema = Type.Object(
  {
    type: Type.Literal('function'),
    function: Type.Object(
      {
        name: Type.String({ pattern: '^[a-zA-Z0-9_-]{1,128}$' }),
        description: Type.Optional(Type.String()),
        parameters: Type.Optional(Type.Unknown()),
        strict: Type.Optional(Type.Boolean()),
      },
      { additionalProperties: true },
    ),
  },
  { additionalProperties: true },
);

const ToolChoice = Type.Union([
  Type.Literal('none'),
  Type.Literal('auto'),
  Type.Literal('required'),
  Type.Object({ type: Type.Literal('function'), function: Type.Object({ name: Type.String() }) }),
]);

const Ceiling = Type.Integer({ minimum: 1, maximum: 1_048_576 });

/** The body of POST /chat/completions (spec 01). Unknown members are accepted and not forwarded. */
export const ChatRequestSchema = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    models: Type.Optional(ModelsSchema),
    messages: Type.Array(ChatMessageSchema, { minItems: 1 }),
    stream: Type.Optional(Type.Boolean()),
    stream_options: Type.Optional(Type.Object({}, { additionalProperties: true })),
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
    tools: Type.Optional(Type.Array(ToolSchema, { maxItems: 1536 })),
    tool_choice: Type.Optional(ToolChoice),
    n: Type.Optional(Type.Integer({ minimum: 1, maximum: 1 })),
    user: Type.Optional(IdentifierString),
    session_id: Type.Optional(IdentifierString),
    prompt_cache_key: Type.Optional(IdentifierString),
    metadata: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    provider: Type.Optional(ProviderPreferencesSchema),
  },
  { additionalProperties: true },
);

export type ChatRequestBody = Static<typeof ChatRequestSchema>;
