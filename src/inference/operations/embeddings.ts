import { computeOperationCost } from '../../billing/operation-pricing.js';
import type { EmbeddingsAsk, EmbeddingsResult } from '../../core/embeddings.js';
import { encodeEmbeddingsReply } from '../../dialects/embeddings/encode.js';
import { embeddingsAdapters } from '../../upstream/operation-registry.js';
import type { OperationBinding } from '../operation-binding.js';

/** Embeddings: one call, billed per prompt token reported (and per request where priced). */
export const embeddingsOperation: OperationBinding<EmbeddingsAsk, EmbeddingsResult> = {
  execute: (executor, ask, plan, signal) => executor.unary(ask, plan, signal, embeddingsAdapters),
  recorded: (result) => ({
    ...(result.usage.promptTokens !== undefined && { usage: { promptTokens: result.usage.promptTokens } }),
    ...(result.upstreamId !== undefined && { upstreamId: result.upstreamId }),
    finishReason: null,
  }),
  price: (pricing, result, _outcome, now) =>
    computeOperationCost(pricing, result.usage.promptTokens === undefined ? {} : { promptTokens: result.usage.promptTokens }, now),
  encode: encodeEmbeddingsReply,
};
