import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ProviderPreferencesSchema } from '../shared/routing-schema.js';

/** At most this many questions in one request: each is one upstream call. */
export const MAX_QUESTIONS = 32;

/** Text, or structured content rendered as JSON. */
const Content = Type.Union([
  Type.String({ minLength: 1 }),
  Type.Object({}, { additionalProperties: true }),
  Type.Array(Type.Unknown(), { minItems: 1 }),
]);

const QuestionSchema = Type.Object(
  {
    type: Type.Union([Type.Literal('choice'), Type.Literal('score'), Type.Literal('noul')]),
    instructions: Content,
    /** choice: option → description; score: level descriptions lowest first; noul: `true`/`false` descriptions. */
    criteria: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: false },
);

/** The body of POST /systemone (spec 01). */
export const SystemOneRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    state: Content,
    questions: Type.Record(Type.String(), QuestionSchema, { minProperties: 1, maxProperties: MAX_QUESTIONS }),
    provider: Type.Optional(ProviderPreferencesSchema),
    user: Type.Optional(IdentifierString),
    session_id: Type.Optional(IdentifierString),
    /** Accepted and never forwarded. */
    trace: Type.Optional(Type.Unknown()),
  },
  { additionalProperties: true },
);

export type SystemOneRequestBody = Static<typeof SystemOneRequestSchema>;
export type QuestionBody = Static<typeof QuestionSchema>;
export type ContentBody = Static<typeof Content>;
