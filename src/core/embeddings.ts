/** The core form of an embeddings call, between its dialect and the upstream adapters. */

/** What is embedded, as the caller sent it: every form is forwarded unchanged. */
export type EmbeddingsInput = string | string[] | number[] | number[][] | { content: unknown[] }[];

export type EmbeddingsEncoding = 'float' | 'base64';

/** Modalities an embeddings input can carry. */
export type EmbeddedModality = 'text' | 'image' | 'audio' | 'video' | 'file';

export interface EmbeddingsAsk {
  input: EmbeddingsInput;
  /** How many vectors the reply must hold: one per input entry. */
  count: number;
  /** Reply encoding the caller asked for; upstream is always asked for floats. */
  encoding: EmbeddingsEncoding;
  dimensions?: number;
  /** Usage hint, sent only to endpoints declaring `input_type`. */
  inputType?: string;
  user?: string;
  /** Distinct modalities of the whole input: the usage split is shown only when there are several. */
  modalities: ReadonlySet<EmbeddedModality>;
}

/** Prompt tokens split by modality, under the reply's member names (`text_tokens`, `image_tokens`, …). */
export type EmbeddingsTokenSplit = Partial<Record<`${EmbeddedModality}_tokens`, number>>;

export interface EmbeddingsUsage {
  /** As reported; undefined when the endpoint reported none (an explicit 0 stays 0). */
  promptTokens?: number;
  split?: EmbeddingsTokenSplit;
}

export interface EmbeddingsResult {
  upstreamId?: string;
  /** One vector per input entry, in input order. */
  vectors: number[][];
  usage: EmbeddingsUsage;
}
