import { Type, type Static } from '@sinclair/typebox';
import { AUDIO_CONTAINERS } from '../../core/audio-container.js';
import { TIMESTAMP_GRANULARITIES, TRANSCRIPT_FORMATS, TRANSCRIPTION_UPLOAD_BYTES } from '../../core/transcription.js';
import { IdentifierString, ProviderPreferencesSchema } from '../shared/routing-schema.js';
import type { UploadedAudio } from './uploaded-audio.js';

const literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((value) => Type.Literal(value)));

const MIB = TRANSCRIPTION_UPLOAD_BYTES / 1024 / 1024;

/** What the JSON body and the multipart form share: every member but the recording. */
const TranscriptionOptions = {
  model: Type.String({ minLength: 1 }),
  language: Type.Optional(Type.String({ pattern: '^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$', description: 'The spoken language, ISO-639-1 (`en`); only endpoints declaring it in `supported_languages` hear it' })),
  prompt: Type.Optional(Type.String({ description: 'Text to guide the style, or to continue a previous stretch of audio' })),
  response_format: Type.Optional(literals(TRANSCRIPT_FORMATS)),
  temperature: Type.Optional(Type.Number({ minimum: 0, maximum: 1 })),
  timestamp_granularities: Type.Optional(Type.Array(literals(TIMESTAMP_GRANULARITIES), { uniqueItems: true, maxItems: 2, description: 'With response_format verbose_json: `word`, `segment` or both' })),
  stream: Type.Optional(Type.Literal(false, { description: 'The transcript is not streamed: only false is accepted' })),
  session_id: Type.Optional(Type.String({ maxLength: 256, description: 'Groups related requests; overrides the X-Session-Id header' })),
  user: Type.Optional(IdentifierString),
  provider: Type.Optional(ProviderPreferencesSchema),
};

const InputAudio = Type.Object(
  {
    data: Type.String({ minLength: 1, description: `The recording, raw base64 (no data-URL prefix), at most ${MIB} MiB decoded` }),
    format: literals(AUDIO_CONTAINERS),
  },
  { additionalProperties: false },
);

/** The JSON body of POST /audio/transcriptions: the recording as `input_audio`. */
export const TranscriptionJsonSchema = Type.Object({ ...TranscriptionOptions, input_audio: InputAudio }, { additionalProperties: true });

/**
 * The body the dialect admits: the JSON body, or a multipart form read into it (form-body.ts), whose
 * recording arrives as `file`, its bytes held by an `UploadedAudio` (which only a form can make).
 */
export const TranscriptionRequestSchema = Type.Object(
  {
    ...TranscriptionOptions,
    input_audio: Type.Optional(InputAudio),
    file: Type.Optional(Type.Unsafe<UploadedAudio>({ description: 'The recording, from a multipart form' })),
  },
  { additionalProperties: true },
);

export type TranscriptionRequestBody = Static<typeof TranscriptionRequestSchema>;

/**
 * The multipart form, as OpenAI's client sends it (for the document; it is judged as the body above
 * once read): the same fields, `timestamp_granularities[]` once per item, `provider` JSON-encoded,
 * and `file`, the recording (its container is read from its bytes).
 */
const { timestamp_granularities: granularities, ...formFields } = TranscriptionOptions;
export const TranscriptionFormSchema = Type.Object({
  ...formFields,
  'timestamp_granularities[]': granularities,
  temperature: Type.Optional(Type.String({ description: 'A number from 0 to 1' })),
  provider: Type.Optional(Type.String({ contentMediaType: 'application/json', description: 'Provider preferences, JSON-encoded' })),
  file: Type.String({
    contentMediaType: 'application/octet-stream',
    description: `The recording (${AUDIO_CONTAINERS.join(', ')}; at most ${MIB} MiB)`,
  }),
});
