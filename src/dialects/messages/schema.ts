import { Type, type Static } from '@sinclair/typebox';
import { ModelsSchema, ProviderPreferencesSchema, RouteAlias } from '../shared/routing-schema.js';
import { MessageSchema, SystemSchema } from './block-schema.js';
import { ContextManagementSchema, OutputConfigSchema, ThinkingSchema } from './option-schema.js';
import { ToolChoiceSchema, ToolSchema } from './tool-schema.js';

/** The conversation members shared by POST /messages and POST /messages/count_tokens. */
const conversation = {
  model: Type.String({ minLength: 1 }),
  messages: Type.Array(MessageSchema, { minItems: 1 }),
  system: Type.Optional(SystemSchema),
  tools: Type.Optional(Type.Array(ToolSchema)),
  tool_choice: Type.Optional(ToolChoiceSchema),
  thinking: Type.Optional(ThinkingSchema),
  output_config: Type.Optional(OutputConfigSchema),
  context_management: Type.Optional(ContextManagementSchema),
};

/**
 * The body of POST /messages (spec 01). Unknown members are accepted and not forwarded, so
 * clients written for the Anthropic API (agents such as Claude Code send `service_tier`,
 * `container`, `speed`, …) may send members this service does not act on.
 */
export const MessagesRequestSchema = Type.Object(
  {
    ...conversation,
    models: Type.Optional(ModelsSchema),
    max_tokens: Type.Integer({ minimum: 1 }),
    metadata: Type.Optional(Type.Object({}, { additionalProperties: true })),
    stop_sequences: Type.Optional(Type.Array(Type.String(), { maxItems: 8 })),
    stream: Type.Optional(Type.Boolean()),
    temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 2 })),
    top_p: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
    top_k: Type.Optional(Type.Integer({ minimum: 0 })),
    stream_options: Type.Optional(Type.Object({ include_tool_dispatch: Type.Optional(Type.Boolean()) }, { additionalProperties: true })),
    provider: Type.Optional(ProviderPreferencesSchema),
    route: Type.Optional(RouteAlias),
    transforms: Type.Optional(Type.Array(Type.String())),
    plugins: Type.Optional(Type.Array(Type.Object({ id: Type.String() }, { additionalProperties: true }))),
  },
  { additionalProperties: true },
);

export type MessagesRequestBody = Static<typeof MessagesRequestSchema>;

/** The body of POST /messages/count_tokens: the conversation of a would-be messages request. */
export const CountTokensRequestSchema = Type.Object(conversation, { additionalProperties: true });

export type CountTokensRequestBody = Static<typeof CountTokensRequestSchema>;
