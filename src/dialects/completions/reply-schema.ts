import { Type } from '@sinclair/typebox';
import { CompletionUsageSchema, FinishReasonSchema } from '../chat/reply-schema.js';

const TextLogprobs = Type.Object({
  tokens: Type.Array(Type.String()),
  token_logprobs: Type.Array(Type.Number()),
  top_logprobs: Type.Array(Type.Record(Type.String(), Type.Number())),
  text_offset: Type.Array(Type.Integer({ minimum: 0 })),
});

/** The `text_completion` object of a whole reply (spec 01); a refusal is its text, ending with `content_filter`. */
export const TextCompletionSchema = Type.Object({
  id: Type.String({ description: 'Generation id' }),
  object: Type.Literal('text_completion'),
  created: Type.Integer({ description: 'Unix seconds' }),
  model: Type.String(),
  provider: Type.String(),
  choices: Type.Array(Type.Object({
    index: Type.Literal(0),
    text: Type.String(),
    logprobs: Type.Union([TextLogprobs, Type.Null()]),
    finish_reason: FinishReasonSchema,
  }), { minItems: 1, maxItems: 1 }),
  usage: CompletionUsageSchema,
});

/** What `stream: true` sends instead (spec 01 Events). */
export const COMPLETIONS_STREAM_EVENTS = 'Unnamed `data:` frames of `text_completion` objects with `choices[].text`; '
  + 'a final frame with `usage` (and `honoured`); then `data: [DONE]`. A failure after the stream opened is a last frame with an `error` member.';
