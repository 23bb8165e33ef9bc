import { Type } from '@sinclair/typebox';
import { SAMPLE_FORMATS, SPEECH_CONTENT_TYPES, SPEECH_LIMITS } from '../../core/speech.js';
import { NUMBER_FIELDS, TEXT_FIELDS } from './multipart-body.js';
import { SpeechRequestSchema } from './schema.js';

/**
 * The multipart form of POST /audio/speech, as multipart-body.ts reads it into the JSON body: the
 * same fields, `provider` JSON-encoded, and `file`, a voice sample for this request only (its format
 * is read from its bytes), with its optional `transcript`; each part's media type is its
 * `contentMediaType` (OpenAPI 3.1). For the document only: the form is judged by the JSON body's
 * schema once read.
 */
export const SpeechFormSchema = Type.Object({
  ...Object.fromEntries([...TEXT_FIELDS, ...NUMBER_FIELDS].map((name) => [name, SpeechRequestSchema.properties[name]])),
  provider: Type.Optional(Type.String({ contentMediaType: 'application/json', description: 'Provider preferences, JSON-encoded' })),
  file: Type.Optional(Type.String({
    contentMediaType: 'application/octet-stream',
    description: `A voice sample (${SAMPLE_FORMATS.join(', ')}; at most ${SPEECH_LIMITS.sampleBytes / 1024 / 1024} MiB): routes only to endpoints declaring \`supports_voice_cloning\`, and overrides \`voice\``,
  })),
  transcript: Type.Optional(Type.String({ description: 'What the sample says; only with `file`' })),
});

/** The audio reply's content types, one per `response_format`. */
export const SPEECH_REPLY_TYPES = Object.values(SPEECH_CONTENT_TYPES);
