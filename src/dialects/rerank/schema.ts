import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ProviderPreferencesSchema } from '../shared/routing-schema.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Optional(Type.Union([schema, Type.Null()]));

/**
 * A document object: `text` is what is scored; `title`, when given, is scored too as the text's
 * first line; `id` and `metadata` are the caller's own, never sent upstream. Echoed exactly.
 */
export const RerankDocumentObject = Type.Object(
  {
    text: Type.String(),
    title: Nullable(Type.String()),
    id: Nullable(Type.String()),
    metadata: Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()])),
  },
  { additionalProperties: false },
);

/** The body of POST /rerank (spec 01). Unknown members are accepted and not forwarded. */
export const RerankRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    query: Type.String(),
    documents: Type.Array(Type.Union([Type.String(), RerankDocumentObject]), { minItems: 1 }),
    top_n: Type.Optional(Type.Integer({ minimum: 1 })),
    return_documents: Type.Optional(Type.Boolean()),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
  },
  { additionalProperties: true },
);

export type RerankRequestBody = Static<typeof RerankRequestSchema>;
export type RerankDocumentBody = RerankRequestBody['documents'][number];
