import { computeOperationCost } from '../../billing/operation-pricing.js';
import type { RerankAsk, RerankResult } from '../../core/rerank.js';
import { encodeRerankReply } from '../../dialects/rerank/encode.js';
import { rerankAdapters } from '../../upstream/operation-registry.js';
import type { OperationBinding } from '../operation-binding.js';

/** Rerank: one call, billed per token reported (and per request where priced); search units recorded unpriced. */
export const rerankOperation: OperationBinding<RerankAsk, RerankResult> = {
  execute: (executor, ask, plan, signal) => executor.unary(ask, plan, signal, rerankAdapters),
  recorded: (result) => ({
    ...(result.usage.totalTokens !== undefined && { usage: { promptTokens: result.usage.totalTokens } }),
    ...(result.upstreamId !== undefined && { upstreamId: result.upstreamId }),
    finishReason: null,
  }),
  price: (pricing, { usage }, _outcome, now) => computeOperationCost(pricing, {
    ...(usage.totalTokens !== undefined && { promptTokens: usage.totalTokens }),
    ...(usage.searchUnits !== undefined && { searchUnits: usage.searchUnits }),
  }, now),
  encode: encodeRerankReply,
};
