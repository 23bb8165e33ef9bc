import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ProviderPreferencesSchema } from '../shared/routing-schema.js';

/** `WxH` in pixels, or `auto`. */
const Size = Type.String({ pattern: '^(auto|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$', description: 'WxH in pixels (e.g. 1024x1024), or auto' });

/**
 * The body of POST /images/generations, in OpenAI's shape, so its official client's
 * `images.generate` works unmodified. `provider` is this gateway's routing preferences; `moderation`
 * and `style` are accepted and not forwarded. Streaming partial pictures is not offered.
 */
export const ImageGenerationsRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    prompt: Type.String({ minLength: 1 }),
    n: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    size: Type.Optional(Size),
    quality: Type.Optional(Type.String({ minLength: 1 })),
    background: Type.Optional(Type.String({ minLength: 1 })),
    output_format: Type.Optional(Type.Union([Type.Literal('png'), Type.Literal('jpeg'), Type.Literal('webp')])),
    output_compression: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    response_format: Type.Optional(Type.Union([Type.Literal('b64_json'), Type.Literal('url')])),
    seed: Type.Optional(Type.Integer()),
    stream: Type.Optional(Type.Literal(false, { description: 'Partial pictures are not streamed: only false is accepted' })),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
  },
  { additionalProperties: true },
);

export type ImageGenerationsRequestBody = Static<typeof ImageGenerationsRequestSchema>;
