import type { EmbeddingsAsk, EmbeddingsResult } from '../../core/embeddings.js';
import type { ReplyMeta } from '../shared/reply-meta.js';
import { float32Base64 } from '../../core/vector-encoding.js';

export interface EmbeddingsReplyUsage {
  prompt_tokens?: number;
  total_tokens?: number;
  prompt_tokens_details?: Record<string, number>;
  cost: number;
}

/**
 * The embeddings reply (spec 01): one `embedding` object per input, floats or base64 of
 * little-endian float32 as asked. Counts are omitted when unreported (`total_tokens` equals
 * `prompt_tokens`, an explicit 0 stays 0); the split by modality appears only when the input mixed
 * modalities and the endpoint reported it.
 */
export function encodeEmbeddingsReply(result: EmbeddingsResult, meta: ReplyMeta, ask: EmbeddingsAsk, cost: number): Record<string, unknown> {
  return {
    object: 'list',
    id: meta.id,
    data: result.vectors.map((vector, index) => ({
      object: 'embedding',
      index,
      embedding: ask.encoding === 'base64' ? float32Base64(vector) : vector,
    })),
    model: meta.model,
    provider: meta.provider,
    usage: replyUsage(result, ask, cost),
  };
}

function replyUsage(result: EmbeddingsResult, ask: EmbeddingsAsk, cost: number): EmbeddingsReplyUsage {
  const { promptTokens, split } = result.usage;
  const mixed = ask.modalities.size > 1 && split !== undefined && Object.keys(split).length > 0;
  return {
    ...(promptTokens !== undefined && { prompt_tokens: promptTokens, total_tokens: promptTokens }),
    ...(mixed && { prompt_tokens_details: { ...split } }),
    cost,
  };
}
