import { Type } from '@sinclair/typebox';
import { tagged } from '../shared/tagged-union.js';

const detailExtras = { index: Type.Integer({ minimum: 0 }), format: Type.Optional(Type.String()) };

/** One `reasoning_details` entry (spec 01): text, summary or an opaque encrypted blob. */
export const ReasoningDetailSchema = tagged('type', [
  Type.Object({ type: Type.Literal('reasoning.text'), text: Type.String(), signature: Type.Optional(Type.String()), ...detailExtras }),
  Type.Object({ type: Type.Literal('reasoning.summary'), summary: Type.String(), ...detailExtras }),
  Type.Object({ type: Type.Literal('reasoning.encrypted'), data: Type.String(), ...detailExtras }),
]);

/** `usage` of chat and text completions: a count is omitted when the endpoint reported none; `cost` always. */
export const CompletionUsageSchema = Type.Object({
  prompt_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
  completion_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
  total_tokens: Type.Optional(Type.Integer({ minimum: 0, description: 'Present only when both counts are' })),
  prompt_tokens_details: Type.Optional(Type.Object({
    cached_tokens: Type.Integer({ minimum: 0 }),
    cache_write_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
  })),
  completion_tokens_details: Type.Optional(Type.Object({ reasoning_tokens: Type.Integer({ minimum: 0 }) })),
  cost: Type.Number({ minimum: 0, description: 'Exact charge in USD' }),
});

export const FinishReasonSchema = Type.Union(['stop', 'length', 'tool_calls', 'content_filter', 'error'].map((reason) => Type.Literal(reason)));

const LogprobEntry = Type.Object({ token: Type.String(), logprob: Type.Number(), bytes: Type.Array(Type.Integer({ minimum: 0, maximum: 255 })) });

const ToolCall = Type.Object({
  id: Type.String(),
  type: Type.Literal('function'),
  function: Type.Object({ name: Type.String(), arguments: Type.String({ description: 'JSON text' }) }),
});

const AssistantMessage = Type.Object({
  role: Type.Literal('assistant'),
  content: Type.Union([Type.String(), Type.Null()], { description: 'The empty string when the answer is a picture; null for a tool call, refusal or audio' }),
  reasoning: Type.Optional(Type.String()),
  reasoning_details: Type.Optional(Type.Array(ReasoningDetailSchema, { minItems: 1 })),
  refusal: Type.Optional(Type.String()),
  tool_calls: Type.Optional(Type.Array(ToolCall, { minItems: 1 })),
  images: Type.Optional(Type.Array(Type.Object({
    type: Type.Literal('image_url'),
    image_url: Type.Object({ url: Type.String({ description: 'A data URL, or the endpoint\'s own URL' }) }),
    index: Type.Optional(Type.Integer({ minimum: 0 })),
  }))),
  audio: Type.Optional(Type.Object({
    id: Type.String(),
    data: Type.String({ description: 'Base64' }),
    expires_at: Type.Union([Type.Integer(), Type.Null()]),
    transcript: Type.String(),
  })),
});

/** The `chat.completion` object of a whole (not streamed) reply (spec 01). */
export const ChatCompletionSchema = Type.Object({
  id: Type.String({ description: 'Generation id' }),
  object: Type.Literal('chat.completion'),
  created: Type.Integer({ description: 'Unix seconds' }),
  model: Type.String({ description: 'Model that served the request' }),
  provider: Type.String({ description: 'Display name of the serving provider' }),
  system_fingerprint: Type.Null(),
  choices: Type.Array(Type.Object({
    index: Type.Literal(0),
    message: AssistantMessage,
    finish_reason: FinishReasonSchema,
    native_finish_reason: Type.Union([Type.String(), Type.Null()], { description: 'The provider\'s raw reason' }),
    logprobs: Type.Optional(Type.Object({
      content: Type.Array(Type.Object({ ...LogprobEntry.properties, top_logprobs: Type.Array(LogprobEntry) })),
      refusal: Type.Null(),
    })),
  }), { minItems: 1, maxItems: 1 }),
  usage: CompletionUsageSchema,
});

/** What `stream: true` sends instead (spec 01 Events). */
export const CHAT_STREAM_EVENTS = 'Unnamed `data:` frames, each a `chat.completion.chunk` (`choices[0].delta`, `finish_reason`); '
  + 'then one chunk with empty `choices` and the full `usage` with `cost`; then `data: [DONE]`. Comment lines are keep-alives. '
  + 'A failure after the stream opened is a last chunk with an `error` member (the shared envelope\'s `error`) and `finish_reason: error`.';
