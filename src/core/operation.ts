/**
 * A request that is not a conversation: one JSON call, one JSON reply, nothing streamed
 * (embeddings, rerank, image generation, transcription). It goes through the same key, rate limit, planner, hold, executor and
 * settlement as chat; only its translation differs. The planner reads `OperationAsk` from the
 * core request to judge which endpoints serve it.
 */

/**
 * Operations an endpoint declares among its `output_modalities` (`image`: pictures rendered on
 * request; `transcription`: recordings written out as text).
 */
export type OperationKind = 'embeddings' | 'rerank' | 'image' | 'transcription';

/** One multimodal part of a request, as the model-level modality check judges it. */
export interface JudgedPart {
  /** Request path of the part, e.g. `input[2].content[1]`. */
  field: string;
  modality: 'image' | 'audio' | 'video' | 'file';
}

export type OperationAsk =
  | {
    kind: 'embeddings';
    /** Requested width; only endpoints declaring it in `supported_dimensions` are eligible. */
    dimensions?: number;
    /** Non-text parts: a modality no serving endpoint of the model declares is refused with 400. */
    parts: JudgedPart[];
  }
  | { kind: 'rerank' }
  | ImageRender
  | TranscriptionRoute;

/** What an image-generation call asks of an endpoint's image envelope and render parameters. */
export interface ImageRender {
  kind: 'image';
  /** Pictures asked for. */
  n: number;
  /** `WxH`; absent (or `auto`): the endpoint's choice, or its declared size matching `aspectRatio` and `resolution`. */
  size?: string;
  aspectRatio?: string;
  resolution?: string;
  outputFormat?: string;
  quality?: string;
  background?: string;
  /** Reference pictures sent: only endpoints declaring image reference inputs (of their format and size) take them. */
  references: RenderReference[];
}

/** A reference picture as routing judges it: its container and size when its bytes came with the request; nothing known of one behind a URL. */
export interface RenderReference {
  format?: string;
  bytes?: number;
}

/**
 * What a transcription asks of an endpoint beyond taking the recording's container (an input part
 * of the request's facts): the language it names, timed segments where captions or timestamps are
 * asked, and the seconds its hold covers.
 */
export interface TranscriptionRoute {
  kind: 'transcription';
  /** Seconds of audio, an exact decimal read from the container before routing (absent only until then). */
  seconds?: string;
  language?: string;
  /** Only endpoints declaring `timestamp_granularities` answer with timed segments. */
  timed: boolean;
}
