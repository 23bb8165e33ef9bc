/** The core form of an image-generation call (`/images`, `/images/generations`), between its dialects and the upstream adapters. */

import type { EndpointEntry } from '../catalogue/types.js';

/** A picture the call should start from: bytes with their media type, or a URL the provider fetches. */
export type ImageReference = { kind: 'data'; mediaType: string; base64: string } | { kind: 'url'; url: string };

export interface ImagesAsk {
  prompt: string;
  /** Pictures asked for (default 1). */
  n: number;
  /** `WxH` (e.g. `1024x1024`); absent: derived per endpoint from `aspectRatio` and `resolution`, else the endpoint's default. */
  size?: string;
  /** Normalized aspect ratio (`16:9`); the endpoint's declared size of that ratio is sent. */
  aspectRatio?: string;
  /** Normalized resolution tier (`512`, `1K`, `2K`, `4K`): the declared size whose longer side it names. */
  resolution?: string;
  quality?: string;
  background?: string;
  /** `png`, `jpeg` or `webp`; absent: the endpoint's default. */
  outputFormat?: string;
  outputCompression?: number;
  seed?: number;
  references: ImageReference[];
  /** What the caller wants back: the bytes, or a URL where the endpoint gives one. */
  responseFormat: 'b64_json' | 'url';
  user?: string;
  /** Answered as an event stream: partial pictures where the endpoint streams them, then each picture. */
  stream?: boolean;
  /** Partial pictures asked for (0 to 3), sent only to endpoints declaring `partial_images`. */
  partialImages?: number;
}

/** A picture still being drawn, as a streaming endpoint shows it (`partial_image_index` from 0). */
export interface PartialImage {
  base64: string;
  mediaType: string;
  index: number;
}

/** One picture as it came back: its bytes (base64) and media type, or only a URL the provider serves. */
export type GeneratedImage =
  | { kind: 'data'; base64: string; mediaType: string; revisedPrompt?: string }
  | { kind: 'url'; url: string; revisedPrompt?: string };

/** Token counts an image endpoint reported; undefined where it reported none. */
export interface ImagesUsage {
  inputTokens?: number;
  /** Of the input: text and reference-image tokens, where split. */
  inputTextTokens?: number;
  inputImageTokens?: number;
  /** Output tokens: what `image_output_token` prices. */
  outputTokens?: number;
}

export interface ImagesResult {
  upstreamId?: string;
  images: GeneratedImage[];
  usage: ImagesUsage;
}

/** What a call says of its pictures' size. */
export interface SizeAsk {
  size?: string;
  aspectRatio?: string;
  resolution?: string;
}

/** Longer side in pixels of each normalized resolution tier. */
const TIER_PIXELS: Readonly<Record<string, number>> = { 512: 512, '1K': 1024, '2K': 2048, '4K': 4096 };

/**
 * The size a picture of this call has on `endpoint`: the size asked, else the first declared size of
 * the aspect ratio asked (within 1 %) whose longer side the resolution tier names; undefined when
 * the call names none, or the envelope declares no such size.
 */
export function sizeFor(endpoint: EndpointEntry, render: SizeAsk): string | undefined {
  if (render.size !== undefined && render.size !== 'auto') return render.size;
  if (render.aspectRatio === undefined && render.resolution === undefined) return undefined;
  const ratio = render.aspectRatio === undefined ? undefined : ratioOf(render.aspectRatio);
  const side = render.resolution === undefined ? undefined : TIER_PIXELS[render.resolution];
  return endpoint.listing.imageEnvelope?.sizes.find((size) => {
    const [width, height] = dimensionsOf(size);
    if (width === 0 || height === 0) return false;
    if (ratio !== undefined && Math.abs(width / height - ratio) > ratio * 0.01) return false;
    return side === undefined || Math.max(width, height) === side;
  });
}

export function dimensionsOf(size: string): [number, number] {
  const [width, height] = size.split('x').map(Number);
  return width !== undefined && height !== undefined && Number.isInteger(width) && Number.isInteger(height) ? [width, height] : [0, 0];
}

function ratioOf(aspectRatio: string): number | undefined {
  const [width, height] = aspectRatio.split(':').map(Number);
  return width && height ? width / height : undefined;
}

