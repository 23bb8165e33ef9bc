import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ModelsSchema, ProviderPreferencesSchema, RouteAlias } from '../shared/routing-schema.js';

/**
 * An input item: a `message` (with or without `type`), a `function_call` or a
 * `function_call_output`. Items are told apart by `type` (and `role`) in decode, which names the
 * exact position of anything it cannot read.
 */
const InputItem = Type.Object({ type: Type.Optional(Type.String()) }, { additionalProperties: true });

const Tool = Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true });

const ToolChoice = Type.Union([
  Type.Literal('auto'),
  Type.Literal('none'),
  Type.Literal('required'),
  Type.Object(
    { type: Type.Literal('function'), name: Type.String({ minLength: 1 }), namespace: Type.Optional(Type.String()) },
    { additionalProperties: true },
  ),
]);

/** `text.format`; its `type` is checked in decode so that an unknown one is named exactly. */
const TextConfig = Type.Object(
  {
    format: Type.Optional(Type.Object(
      {
        type: Type.String(),
        name: Type.Optional(Type.String()),
        schema: Type.Optional(Type.Unknown()),
        strict: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
        description: Type.Optional(Type.String()),
      },
      { additionalProperties: true },
    )),
  },
  { additionalProperties: true },
);

/** The body of POST /responses (spec 01). Unknown members are accepted and not forwarded. */
export const ResponsesRequestSchema = Type.Object(
  {
    model: Type.Optional(Type.String({ minLength: 1 })),
    models: Type.Optional(ModelsSchema),
    input: Type.Union([Type.String(), Type.Array(InputItem)]),
    instructions: Type.Optional(Type.String()),
    prompt_cache_key: Type.Optional(IdentifierString),
    max_output_tokens: Type.Optional(Type.Integer({ minimum: 1 })),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    tools: Type.Optional(Type.Array(Tool)),
    tool_choice: Type.Optional(ToolChoice),
    reasoning: Type.Optional(Type.Object({ effort: Type.Optional(Type.String()) }, { additionalProperties: true })),
    text: Type.Optional(TextConfig),
    stream: Type.Optional(Type.Boolean()),
    stream_options: Type.Optional(Type.Object({ include_tool_dispatch: Type.Optional(Type.Boolean()) }, { additionalProperties: true })),
    previous_response_id: Type.Optional(Type.Unknown()),
    background: Type.Optional(Type.Boolean()),
    store: Type.Optional(Type.Unknown()),
    include: Type.Optional(Type.Unknown()),
    metadata: Type.Optional(Type.Unknown()),
    parallel_tool_calls: Type.Optional(Type.Boolean()),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
    route: Type.Optional(RouteAlias),
  },
  { additionalProperties: true },
);

export type ResponsesRequestBody = Static<typeof ResponsesRequestSchema>;
