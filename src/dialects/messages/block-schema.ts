import { Type, type Static } from '@sinclair/typebox';
import { tagged } from '../shared/tagged-union.js';

const open = { additionalProperties: true } as const;

/**
 * `cache_control` (a prompt-caching breakpoint) is accepted on blocks, system text and tools and not
 * forwarded: the service keeps no prompt cache of its own. It is checked only for its shape.
 */
export const CacheControlSchema = Type.Union([
  Type.Object({ type: Type.String({ minLength: 1 }), ttl: Type.Optional(Type.String()) }, open),
  Type.Null(),
]);

/** The members every cacheable block may carry beside its own. */
const cacheable = { cache_control: Type.Optional(CacheControlSchema) };

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

const Text = Type.Object({ type: Type.Literal('text'), text: Type.String(), ...cacheable }, open);
const Image = Type.Object(
  { type: Type.Literal('image'), source: tagged('type', [Base64Source, UrlSource, FileSource]), ...cacheable },
  open,
);
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
    ...cacheable,
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
    ...cacheable,
  },
  open,
);
const ToolUse = Type.Object(
  {
    type: Type.Literal('tool_use'),
    id: Type.String({ minLength: 1 }),
    name: Type.String({ minLength: 1 }),
    input: Type.Record(Type.String(), Type.Unknown()),
    ...cacheable,
  },
  open,
);
const Thinking = Type.Object(
  { type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.Optional(Type.String()) },
  open,
);
const RedactedThinking = Type.Object({ type: Type.Literal('redacted_thinking'), data: Type.String() }, open);

export const ContentBlockSchema = tagged('type', [Text, Image, Document, ToolResult, ToolUse, Thinking, RedactedThinking]);

const Turn = <R extends 'user' | 'assistant'>(role: R) => Type.Object(
  { role: Type.Literal(role), content: Type.Union([Type.String(), Type.Array(ContentBlockSchema, { minItems: 1 })]) },
  open,
);

/** `system` (top level, or the content of a system turn): a string or text blocks. */
export const SystemSchema = Type.Union([Type.String(), Type.Array(Text)]);

/**
 * A system turn inside `messages` (Anthropic's mid-conversation system messages): its text reaches
 * the model at that place in the conversation. `clear_at: next_user_message` shows it only until a
 * later user turn exists.
 */
const SystemTurn = Type.Object(
  {
    role: Type.Literal('system'),
    content: SystemSchema,
    clear_at: Type.Optional(Type.Union([Type.Literal('never'), Type.Literal('next_user_message')])),
  },
  open,
);

export const MessageSchema = tagged('role', [Turn('user'), Turn('assistant'), SystemTurn]);

export type ContentBlock = Static<typeof ContentBlockSchema>;
export type TextBlock = Static<typeof Text>;
export type ImageBlock = Static<typeof Image>;
export type DocumentBlock = Static<typeof Document>;
export type ToolResultBlock = Static<typeof ToolResult>;
export type MessagesMessage = Static<typeof MessageSchema>;
export type SystemTurnMessage = Static<typeof SystemTurn>;
