import { Type, type Static } from '@sinclair/typebox';
import { SAMPLE_FORMATS, SPEECH_FORMATS, SPEECH_LIMITS } from '../../core/speech.js';
import { IdentifierString, ProviderPreferencesSchema } from '../shared/routing-schema.js';

const literals = <const T extends readonly string[]>(values: T) => Type.Union(values.map((value) => Type.Literal(value)));

const VoiceSampleSchema = Type.Object(
  {
    type: Type.Literal('input_audio'),
    input_audio: Type.Object(
      { data: Type.String({ minLength: 1 }), format: literals(SAMPLE_FORMATS) },
      { additionalProperties: false },
    ),
    transcript: Type.Optional(Type.String({ minLength: 1 })),
    role: Type.Optional(Type.Literal('reference')),
  },
  { additionalProperties: false },
);

/** The body of POST /audio/speech (spec 01); a multipart form is read into this same shape. */
export const SpeechRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    input: Type.String({ minLength: 1, maxLength: SPEECH_LIMITS.inputCharacters }),
    voice: Type.Optional(Type.String({ minLength: 1 })),
    response_format: Type.Optional(literals(SPEECH_FORMATS)),
    speed: Type.Optional(Type.Number({ minimum: SPEECH_LIMITS.minSpeed, maximum: SPEECH_LIMITS.maxSpeed })),
    seed: Type.Optional(Type.Integer({ minimum: 0, maximum: SPEECH_LIMITS.maxSeed })),
    max_new_tokens: Type.Optional(Type.Integer({ minimum: 1, maximum: SPEECH_LIMITS.maxNewTokens })),
    instructions: Type.Optional(Type.String()),
    input_references: Type.Optional(Type.Array(VoiceSampleSchema, { minItems: 1, maxItems: 1 })),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
  },
  { additionalProperties: true },
);

export type SpeechRequestBody = Static<typeof SpeechRequestSchema>;
export type VoiceSampleBody = Static<typeof VoiceSampleSchema>;
