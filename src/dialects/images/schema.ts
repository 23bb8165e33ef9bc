import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ProviderPreferencesSchema } from '../shared/routing-schema.js';

const STREAM = 'Answer as an event stream: partial pictures where the endpoint streams them (it declares `partial_images`), then each picture with the usage and cost';
const PARTIAL_IMAGES = 'With `stream`: at most this many partial pictures before each one is done (0 to 3; an endpoint may send fewer)';

/** `WxH` in pixels, or `auto`. */
const Size = Type.String({ pattern: '^(auto|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$', description: 'WxH in pixels (e.g. 1024x1024), or auto' });

/**
 * The body of POST /images/generations, in OpenAI's shape, so its official client's
 * `images.generate` works unmodified. `provider` is this gateway's routing preferences; `moderation`
 * and `style` are accepted and not forwarded.
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
    stream: Type.Optional(Type.Boolean({ description: STREAM })),
    partial_images: Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description: PARTIAL_IMAGES })),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
  },
  { additionalProperties: true },
);

export type ImageGenerationsRequestBody = Static<typeof ImageGenerationsRequestSchema>;

/** The aspect ratios the hosted marketplace names (`auto`: the endpoint's choice). */
const ASPECT_RATIOS = ['1:1', '1:2', '1:4', '1:8', '2:1', '2:3', '2.35:1', '3:2', '3:4', '4:1', '4:3', '4:5', '5:2', '5:4', '8:1', '9:16', '16:9', '9:19.5', '19.5:9', '9:20', '20:9', '9:21', '21:9', 'auto'];
const TIERS = ['512', '1K', '2K', '4K'];

/**
 * The body of POST /images, in the hosted marketplace's shape (its `@openrouter/sdk` types it):
 * `size` is explicit pixels (`WxH`, authoritative) or a resolution tier; `aspect_ratio` and
 * `resolution` are normalized and become each endpoint's own declared size. Reference pictures are
 * image parts.
 */
export const ImagesRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    prompt: Type.String({ minLength: 1 }),
    n: Type.Optional(Type.Integer({ minimum: 1, maximum: 10 })),
    size: Type.Optional(Type.String({ pattern: '^(auto|512|1K|2K|4K|[1-9][0-9]{0,4}x[1-9][0-9]{0,4})$', description: 'WxH in pixels, a resolution tier (512, 1K, 2K, 4K), or auto' })),
    aspect_ratio: Type.Optional(Type.Union(ASPECT_RATIOS.map((ratio) => Type.Literal(ratio)))),
    resolution: Type.Optional(Type.Union(TIERS.map((tier) => Type.Literal(tier)))),
    quality: Type.Optional(Type.String({ minLength: 1 })),
    background: Type.Optional(Type.String({ minLength: 1 })),
    output_format: Type.Optional(Type.Union([Type.Literal('png'), Type.Literal('jpeg'), Type.Literal('webp')])),
    output_compression: Type.Optional(Type.Integer({ minimum: 0, maximum: 100 })),
    seed: Type.Optional(Type.Integer()),
    input_references: Type.Optional(Type.Array(Type.Object({
      type: Type.Literal('image_url'),
      image_url: Type.Object({ url: Type.String({ minLength: 1 }) }),
    }), { maxItems: 16 })),
    stream: Type.Optional(Type.Boolean({ description: STREAM })),
    partial_images: Type.Optional(Type.Integer({ minimum: 0, maximum: 3, description: PARTIAL_IMAGES })),
    session_id: Type.Optional(Type.String({ maxLength: 256 })),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
  },
  { additionalProperties: true },
);

export type ImagesRequestBody = Static<typeof ImagesRequestSchema>;
