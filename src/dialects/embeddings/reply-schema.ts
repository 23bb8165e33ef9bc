import { Type } from '@sinclair/typebox';

/** The embeddings reply (spec 01): one vector per input, floats or base64 of little-endian float32. */
export const EmbeddingsReplySchema = Type.Object({
  object: Type.Literal('list'),
  id: Type.String({ description: 'Generation id' }),
  data: Type.Array(Type.Object({
    object: Type.Literal('embedding'),
    index: Type.Integer({ minimum: 0, description: 'Position of the input' }),
    embedding: Type.Union([Type.Array(Type.Number()), Type.String({ description: 'Base64, with `encoding_format: base64`' })]),
  })),
  model: Type.String(),
  provider: Type.String(),
  usage: Type.Object({
    prompt_tokens: Type.Optional(Type.Integer({ minimum: 0 })),
    total_tokens: Type.Optional(Type.Integer({ minimum: 0, description: 'Equals prompt_tokens' })),
    prompt_tokens_details: Type.Optional(Type.Record(Type.String(), Type.Integer({ minimum: 0 }), {
      description: '`text_tokens`, `image_tokens`, …: only when the input mixed modalities and the endpoint reported the split',
    })),
    cost: Type.Number({ minimum: 0 }),
  }),
});
