/** The core form of an image-generation call (`/images`, `/images/generations`), between its dialects and the upstream adapters. */

/** A picture the call should start from: bytes with their media type, or a URL the provider fetches. */
export type ImageReference = { kind: 'data'; mediaType: string; base64: string } | { kind: 'url'; url: string };

export interface ImagesAsk {
  prompt: string;
  /** Pictures asked for (default 1). */
  n: number;
  /** `WxH` (e.g. `1024x1024`) or `auto`; absent: the endpoint's default. */
  size?: string;
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
