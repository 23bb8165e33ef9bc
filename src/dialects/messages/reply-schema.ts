import { Type } from '@sinclair/typebox';
import { ErrorDetailSchema } from '../../core/error-envelope-schema.js';
import { tagged } from '../shared/tagged-union.js';

const ImageSource = tagged('type', [
  Type.Object({ type: Type.Literal('base64'), media_type: Type.String(), data: Type.String() }),
  Type.Object({ type: Type.Literal('url'), url: Type.String() }),
]);

/** The content blocks a reply carries: never server-tool blocks or citations (spec 01). */
const ReplyBlock = tagged('type', [
  Type.Object({ type: Type.Literal('thinking'), thinking: Type.String(), signature: Type.String({ description: '"" for reasoning nobody signed' }) }),
  Type.Object({ type: Type.Literal('redacted_thinking'), data: Type.String() }),
  Type.Object({ type: Type.Literal('text'), text: Type.String() }),
  Type.Object({ type: Type.Literal('image'), source: ImageSource }),
  Type.Object({ type: Type.Literal('tool_use'), id: Type.String(), name: Type.String(), input: Type.Record(Type.String(), Type.Unknown()) }),
]);

const CountName = Type.Union([Type.Literal('input_tokens'), Type.Literal('output_tokens')]);

/** The `message` object of a whole reply (spec 01). */
export const MessageReplySchema = Type.Object({
  id: Type.String({ description: '`msg_` and the generation id\'s own part' }),
  type: Type.Literal('message'),
  role: Type.Literal('assistant'),
  model: Type.String(),
  content: Type.Array(ReplyBlock),
  stop_reason: Type.Union(['end_turn', 'max_tokens', 'stop_sequence', 'tool_use', 'refusal'].map((reason) => Type.Literal(reason))),
  stop_sequence: Type.Union([Type.String(), Type.Null()]),
  usage: Type.Object({
    input_tokens: Type.Integer({ minimum: 0 }),
    output_tokens: Type.Integer({ minimum: 0 }),
    service: Type.Optional(Type.Object(
      { unreported: Type.Array(CountName, { minItems: 1 }) },
      { description: 'Counts sent as 0 that nothing measured; absent when both were reported' },
    )),
  }),
});

/** The reply of POST /messages/count_tokens. */
export const CountTokensReplySchema = Type.Object({ input_tokens: Type.Integer({ minimum: 0 }) });

/**
 * The dialect's error envelope, after the Anthropic API's `{type: "error", error: {type, message}}`,
 * carrying the shared envelope's members inside `error` (error-body.ts renders it).
 */
export const MessagesErrorSchema = Type.Object({
  type: Type.Literal('error'),
  error: Type.Intersect([ErrorDetailSchema, Type.Object({ type: Type.String({ description: 'The Anthropic API\'s error type, e.g. `overloaded_error`' }) })]),
});

/** What `stream: true` sends instead (spec 01 Events). */
export const MESSAGES_STREAM_EVENTS = 'Named events: `message_start`, `content_block_start` / `content_block_delta` / `content_block_stop` per block, '
  + '`message_delta` (stop reason and final usage), `message_stop`. A failure after the stream opened is an `error` event whose data is the MessagesError envelope.';
