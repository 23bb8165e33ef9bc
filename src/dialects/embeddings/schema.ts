import { Type, type Static } from '@sinclair/typebox';
import { IdentifierString, ProviderPreferencesSchema } from '../shared/routing-schema.js';
import { tagged } from '../shared/tagged-union.js';

const Media = Type.Object({ data: Type.String({ minLength: 1 }), format: Type.String({ minLength: 1 }) });

const TextPart = Type.Object({ type: Type.Literal('text'), text: Type.String() });
const ImagePart = Type.Object({ type: Type.Literal('image_url'), image_url: Type.Object({ url: Type.String({ minLength: 1 }) }) });
const AudioPart = Type.Object({ type: Type.Literal('input_audio'), input_audio: Media });
const VideoPart = Type.Object({ type: Type.Literal('input_video'), input_video: Media });
const FilePart = Type.Object({ type: Type.Literal('input_file'), input_file: Media });

/** One part of a multimodal item; the parts of one item are embedded into one vector. */
export type EmbeddingsPart =
  | Static<typeof TextPart>
  | Static<typeof ImagePart>
  | Static<typeof AudioPart>
  | Static<typeof VideoPart>
  | Static<typeof FilePart>;

const MultimodalItem = Type.Object({ content: Type.Array(tagged('type', [TextPart, ImagePart, AudioPart, VideoPart, FilePart]), { minItems: 1 }) });

export interface MultimodalItemBody {
  content: EmbeddingsPart[];
}

const TokenArray = Type.Array(Type.Integer({ minimum: 0 }), { minItems: 1 });

/**
 * `input`: one string, a string array, one pre-tokenised integer array, an array of them, or
 * multimodal items. The batch limit (2,048 entries) is checked when decoding, so it is named.
 */
const Input = Type.Union([
  Type.String(),
  Type.Array(Type.String(), { minItems: 1 }),
  TokenArray,
  Type.Array(TokenArray, { minItems: 1 }),
  Type.Array(MultimodalItem, { minItems: 1 }),
]);

/** The body of POST /embeddings (spec 01). Unknown members are accepted and not forwarded. */
export const EmbeddingsRequestSchema = Type.Object(
  {
    model: Type.String({ minLength: 1 }),
    input: Input,
    input_type: Type.Optional(Type.String({ minLength: 1 })),
    encoding_format: Type.Optional(Type.Union([Type.Literal('float'), Type.Literal('base64')])),
    dimensions: Type.Optional(Type.Integer({ minimum: 1 })),
    user: Type.Optional(IdentifierString),
    provider: Type.Optional(ProviderPreferencesSchema),
  },
  { additionalProperties: true },
);

export type EmbeddingsRequestBody = Omit<Static<typeof EmbeddingsRequestSchema>, 'input'> & {
  input: string | string[] | number[] | number[][] | MultimodalItemBody[];
};

/** One embedded entry: text, a token array, or a multimodal item. */
export type InputEntry = string | number[] | MultimodalItemBody;
