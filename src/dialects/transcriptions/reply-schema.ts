import { Type } from '@sinclair/typebox';

const Cost = Type.Number({ minimum: 0, description: 'The exact charge, USD' });

/** Token counts where the endpoint reported them, else the seconds billed; with the exact cost. */
const Usage = Type.Union([
  Type.Object({
    type: Type.Literal('tokens'),
    input_tokens: Type.Integer({ minimum: 0 }),
    input_token_details: Type.Optional(Type.Object({ text_tokens: Type.Integer({ minimum: 0 }), audio_tokens: Type.Integer({ minimum: 0 }) })),
    output_tokens: Type.Integer({ minimum: 0 }),
    total_tokens: Type.Integer({ minimum: 0 }),
    cost: Cost,
  }),
  Type.Object({
    type: Type.Literal('duration'),
    seconds: Type.Number({ minimum: 0, description: 'Seconds of audio, read from the recording\'s container' }),
    cost: Cost,
  }),
]);

const Timed = { start: Type.Number({ description: 'Seconds from the start' }), end: Type.Number() };

/** The JSON replies of POST /audio/transcriptions (`json`, and `verbose_json` with its extra members). */
export const TranscriptionReplySchema = Type.Object({
  task: Type.Optional(Type.Literal('transcribe', { description: 'verbose_json only' })),
  language: Type.Optional(Type.Union([Type.String(), Type.Null()], { description: 'verbose_json only: the language heard, as the endpoint names it' })),
  duration: Type.Optional(Type.Number({ description: 'verbose_json only: seconds of audio' })),
  text: Type.String(),
  segments: Type.Optional(Type.Array(Type.Object({ ...Timed, text: Type.String() }, { additionalProperties: true }))),
  words: Type.Optional(Type.Array(Type.Object({ ...Timed, word: Type.String() }))),
  usage: Usage,
});

/** The content types of the replies: JSON, or plain text for `text`, `srt` and `vtt`. */
export const TRANSCRIPTION_REPLY_TYPES = ['application/json', 'text/plain'] as const;
