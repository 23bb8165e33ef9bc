import type { RerankAsk, RerankScore } from '../core/rerank.js';
import { countOf, objectOf } from './json-guards.js';

/**
 * Reads `results[{index, relevance_score}]`, the shape Cohere-style and OpenAI-compatible rerank
 * servers share. Undefined unless every result names a distinct document of the request with a
 * finite score, and there are as many as asked for (all, or `top_n`).
 */
export function readRerankScores(results: unknown, ask: RerankAsk): RerankScore[] | undefined {
  if (!Array.isArray(results)) return undefined;
  const seen = new Set<number>();
  const scores: RerankScore[] = [];
  for (const item of results) {
    const entry = objectOf(item);
    const index = countOf(entry?.index);
    const score = entry?.relevance_score;
    if (index === undefined || index >= ask.texts.length || seen.has(index)) return undefined;
    if (typeof score !== 'number' || !Number.isFinite(score)) return undefined;
    seen.add(index);
    scores.push({ index, relevanceScore: score });
  }
  const expected = Math.min(ask.topN ?? ask.texts.length, ask.texts.length);
  return scores.length >= expected ? scores : undefined;
}
