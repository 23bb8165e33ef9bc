import type { RerankAsk, RerankResult } from '../../core/rerank.js';
import type { ReplyMeta } from '../shared/reply-meta.js';

export interface RerankReplyUsage {
  search_units: number | null;
  total_tokens: number | null;
  cost: number;
}

/**
 * The rerank reply (spec 01): results ordered by score, highest first (ties by document position),
 * cut to `top_n`; `document` echoed exactly as submitted only with `return_documents`. A count the
 * endpoint did not report is null (spec 01: a figure that was not measured is null, never 0).
 */
export function encodeRerankReply(result: RerankResult, meta: ReplyMeta, ask: RerankAsk, cost: number): Record<string, unknown> {
  const ordered = [...result.scores].sort((a, b) => b.relevanceScore - a.relevanceScore || a.index - b.index);
  const kept = ask.topN === undefined ? ordered : ordered.slice(0, ask.topN);
  const usage: RerankReplyUsage = {
    search_units: result.usage.searchUnits ?? null,
    total_tokens: result.usage.totalTokens ?? null,
    cost,
  };
  return {
    id: meta.id,
    model: meta.model,
    provider: meta.provider,
    results: kept.map((score) => ({
      index: score.index,
      relevance_score: score.relevanceScore,
      ...(ask.returnDocuments && { document: ask.documents[score.index] }),
    })),
    usage,
  };
}
