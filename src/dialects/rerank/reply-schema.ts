import { Type } from '@sinclair/typebox';

/** The rerank reply (spec 01): results by score, highest first, cut to `top_n`. */
export const RerankReplySchema = Type.Object({
  id: Type.String({ description: 'Generation id' }),
  model: Type.String(),
  provider: Type.String(),
  results: Type.Array(Type.Object({
    index: Type.Integer({ minimum: 0, description: 'Position of the document' }),
    relevance_score: Type.Number(),
    document: Type.Optional(Type.Unknown({ description: 'Echoed exactly as submitted, with `return_documents: true`' })),
  })),
  usage: Type.Object({
    search_units: Type.Union([Type.Number({ minimum: 0 }), Type.Null()]),
    total_tokens: Type.Union([Type.Integer({ minimum: 0 }), Type.Null()]),
    cost: Type.Number({ minimum: 0 }),
  }),
});
