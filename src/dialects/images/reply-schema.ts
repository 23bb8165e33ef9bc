import { Type } from '@sinclair/typebox';

const Count = Type.Union([Type.Integer({ minimum: 0 }), Type.Null()], { description: 'As the endpoint reported it; null where it reported none' });

/** The reply of POST /images/generations (OpenAI's shape, with the exact cost in `usage`). */
export const ImageGenerationsReplySchema = Type.Object({
  created: Type.Integer({ description: 'Unix seconds' }),
  data: Type.Array(Type.Object({
    b64_json: Type.Optional(Type.String({ description: 'The picture\'s bytes, base64' })),
    url: Type.Optional(Type.String({ description: 'Where the endpoint serves the picture, when it gave only that' })),
    revised_prompt: Type.Optional(Type.String()),
  })),
  output_format: Type.Optional(Type.String()),
  size: Type.Optional(Type.String()),
  quality: Type.Optional(Type.String()),
  background: Type.Optional(Type.String()),
  usage: Type.Object({
    input_tokens: Count,
    output_tokens: Count,
    total_tokens: Count,
    input_tokens_details: Type.Optional(Type.Object({ text_tokens: Count, image_tokens: Count })),
    cost: Type.Number({ minimum: 0, description: 'The exact charge, USD' }),
  }),
});

/** The reply of POST /images (the hosted marketplace's shape). */
export const ImagesReplySchema = Type.Object({
  created: Type.Integer({ description: 'Unix seconds' }),
  data: Type.Array(Type.Object({
    b64_json: Type.String({ description: 'The picture\'s bytes, base64' }),
    media_type: Type.String({ description: 'image/png, image/jpeg or image/webp' }),
  })),
  usage: Type.Object({
    prompt_tokens: Type.Integer({ minimum: 0 }),
    completion_tokens: Type.Integer({ minimum: 0 }),
    total_tokens: Type.Integer({ minimum: 0 }),
    completion_tokens_details: Type.Optional(Type.Object({ image_tokens: Type.Integer({ minimum: 0 }) })),
    cost: Type.Number({ minimum: 0, description: 'The exact charge, USD' }),
  }),
});
