import type { UpstreamApi } from '../catalogue/types.js';
import type { EmbeddingsAsk, EmbeddingsResult } from '../core/embeddings.js';
import type { OperationAdapter, OperationAdapterLookup } from './operation-adapter.js';
import type { RerankAsk, RerankResult } from '../core/rerank.js';
import { openAiEmbeddingsAdapter } from './openai/embeddings.js';
import { openAiImagesAdapter } from './openai/images.js';
import type { ImagesAsk, ImagesResult, PartialImage } from '../core/images.js';
import { openAiTranscriptionsAdapter } from './openai/transcriptions.js';
import type { TranscriptionAsk, TranscriptionResult } from '../core/transcription.js';
import { cohereRerankAdapter } from './cohere/rerank.js';
import { openAiRerankAdapter } from './openai/rerank.js';

type AdapterTable<Ask, Result, Piece> = Partial<Record<UpstreamApi, OperationAdapter<Ask, Result, Piece>>>;

function lookup<Ask, Result, Piece = never>(table: AdapterTable<Ask, Result, Piece>): OperationAdapterLookup<Ask, Result, Piece> {
  return (attempt) => table[attempt.endpoint.provider.api];
}

/** Embeddings adapters by wire format. */
export const embeddingsAdapters = lookup<EmbeddingsAsk, EmbeddingsResult>({ openai: openAiEmbeddingsAdapter });

/** Rerank adapters by wire format: Cohere-style `/v2/rerank`, or an OpenAI-compatible server's `/rerank`. */
export const rerankAdapters = lookup<RerankAsk, RerankResult>({ cohere: cohereRerankAdapter, openai: openAiRerankAdapter });

/** Image-generation adapters by wire format: OpenAI's `/images/generations`, streamed where the endpoint declares it. */
export const imagesAdapters = lookup<ImagesAsk, ImagesResult, PartialImage>({ openai: openAiImagesAdapter });

/** Transcription adapters by wire format: OpenAI's multipart `/audio/transcriptions`. */
export const transcriptionsAdapters = lookup<TranscriptionAsk, TranscriptionResult>({ openai: openAiTranscriptionsAdapter });
