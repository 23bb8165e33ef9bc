import { Type, type Static } from '@sinclair/typebox';
import { tagged } from '../shared/tagged-union.js';
import { CacheControlSchema } from './block-schema.js';

const open = { additionalProperties: true } as const;

/**
 * A tool entry: a custom (function) tool with `name` and `input_schema`, or a typed hosted tool,
 * which decoding refuses or sets aside by its type. The shape is checked loosely here so the refusal
 * of a hosted web-search entry names the entry rather than a member it lacks. `cache_control`,
 * `defer_loading`, `eager_input_streaming` and other members of the Anthropic API are accepted and
 * not forwarded; `strict` travels with the function.
 */
export const ToolSchema = Type.Object(
  {
    type: Type.Optional(Type.Union([Type.String(), Type.Null()])),
    name: Type.String({ pattern: '^[a-zA-Z0-9_-]{1,128}$' }),
    description: Type.Optional(Type.String()),
    input_schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    strict: Type.Optional(Type.Boolean()),
    cache_control: Type.Optional(CacheControlSchema),
    defer_loading: Type.Optional(Type.Boolean()),
    eager_input_streaming: Type.Optional(Type.Union([Type.Boolean(), Type.Null()])),
  },
  open,
);

export const ToolChoiceSchema = tagged('type', [
  Type.Object({ type: Type.Literal('auto'), disable_parallel_tool_use: Type.Optional(Type.Boolean()) }, open),
  Type.Object({ type: Type.Literal('any'), disable_parallel_tool_use: Type.Optional(Type.Boolean()) }, open),
  Type.Object(
    { type: Type.Literal('tool'), name: Type.String({ minLength: 1 }), disable_parallel_tool_use: Type.Optional(Type.Boolean()) },
    open,
  ),
  Type.Object({ type: Type.Literal('none') }, open),
]);

export type MessagesTool = Static<typeof ToolSchema>;
export type MessagesToolChoice = Static<typeof ToolChoiceSchema>;
