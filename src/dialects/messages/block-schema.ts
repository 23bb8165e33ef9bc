import { Type, type Static } from '@sinclair/typebox';
import { tagged } from '../shared/tagged-union.js';

const open = { additionalProperties: true } as const;

const Base64Source = Type.Object(
  { type: Type.Literal('base64'), media_type: Type.String({ minLength: 1 }), data: Type.String() },
  open,
);
const UrlSource = Type.Object({ type: Type.Literal('url'), url: Type.String({ minLength: 1 }) }, open);
const FileSource = Type.Object({ type: Type.Literal('file'), file_id: Type.String({ minLength: 1 }) }, open);
const TextSource = Type.Object(
  { type: Type.Literal('text'), media_type: Type.Optional(Type.String()), data: Type.String() },
  open,
);

const Text = Type.Object({ type: Type.Literal('text'), text: Type.String() }, open);
const Image = Type.Object({ type: Type.Literal('image'), source: tagged('type', [Base64Source, UrlSource, FileSource]) }, open);
const ContentSource = Type.Object(
  { type: Type.Literal('content'), content: Type.Union([Type.String(), Type.Array(tagged('type', [Text, Image]))]) },
  open,
);
const Document = Type.Object(
  {
    type: Type.Literal('document'),
    source: tagged('type', [Base64Source, UrlSource, FileSource, TextSource, ContentSource]),
    title: Type.Optional(Type.String()),
    context: Type.Optional(Type.String()),
  },
  open,
);

/** What a `tool_result` may hold: text, or text, image and document blocks. */
const ResultContent = Type.Union([Type.String(), Type.Array(tagged('type', [Text, Image, Document]))]);

const ToolResult = Type.Object(
  {
    type: Type.Literal('tool_result'),
    tool_use_id: Type.String({ minLength: 1 }),
    content: Type.Optional(ResultContent),
    is_error: Type.Optional(Type.Boolean()),
  },
  open,
);
const ToolUse = Type.Object(
  { type: Type.Literal('tool_use'), id: Type.String({ minLength: 1 }), name: Type.String({ minLength: 1 }), input: Type.Record(Type.String(), Type.Unknown()) },
  open,
);
const Thinking = Type.Object(
  { type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.Optional(Type.String()) },
  open,
);
const RedactedThinking = Type.Object({ type: Type.Literal('redacted_thinking'), data: Type.String() }, open);

export const ContentBlockSchema = tagged('type', [Text, Image, Document, ToolResult, ToolUse, Thinking, RedactedThinking]);

export const MessageSchema = Type.Object(
  {
    role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]),
    content: Type.Union([Type.String(), Type.Array(ContentBlockSchema, { minItems: 1 })]),
  },
  open,
);

/** `system`: a string or text blocks. */
export const SystemSchema = Type.Union([Type.String(), Type.Array(Text)]);

/**
 * A tool entry: a custom (function) tool with `name` and `input_schema`, or a typed hosted tool,
 * which decoding refuses with its position. The shape is checked loosely here so the refusal of a
 * hosted web-search entry names the entry rather than a member it lacks.
 */
export const ToolSchema = Type.Object(
  {
    type: Type.Optional(Type.String()),
    name: Type.String({ pattern: '^[a-zA-Z0-9_-]{1,128}$' }),
    description: Type.Optional(Type.String()),
    input_schema: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
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

export type ContentBlock = Static<typeof ContentBlockSchema>;
export type TextBlock = Static<typeof Text>;
export type ImageBlock = Static<typeof Image>;
export type DocumentBlock = Static<typeof Document>;
export type ToolResultBlock = Static<typeof ToolResult>;
export type MessagesMessage = Static<typeof MessageSchema>;
export type MessagesTool = Static<typeof ToolSchema>;
export type MessagesToolChoice = Static<typeof ToolChoiceSchema>;
