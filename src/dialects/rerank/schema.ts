import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ProviderPreferencesSchema } from '../shared/routing-schema.js';

/**
 * A document is a string or an object: `text` (required) is what is scored; `title`, when given, is
 * scored too as the text's first line; `id` and `metadata` are the caller's own, never sent upstream.
 * Objects are checked member by member when decoding, so a problem names its member.
 */
export interface RerankDocumentObject {
  text: string;
  title?: string | null;
  id?: string | null;
  metadata?: Record<string, unknown> | null;
}

/** The body of POST /rerank (spec 01). Unknown members are accepted and not forwarded. */
export const RerankRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    query: Type.String(),
    documents: Type.Array(Type.Union([Type.String(), Type.Object({}, { additionalProperties: true })]), { minItems: 1 }),
    top_n: Type.Optional(Type.Integer({ minimum: 1 })),
    return_documents: Type.Optional(Type.Boolean()),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
  },
  { additionalProperties: true },
);

export type RerankRequestBody = Omit<Static<typeof RerankRequestSchema>, 'documents'> & { documents: (string | Record<string, unknown>)[] };
export type RerankDocumentBody = string | RerankDocumentObject;
