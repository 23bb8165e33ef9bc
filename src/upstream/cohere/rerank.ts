import type { PlannedAttempt } from '../../core/plan.js';
import type { RerankAsk, RerankResult, RerankUsage } from '../../core/rerank.js';
import type { UpstreamRequest } from '../types.js';
import { bearerJsonHeaders } from '../bearer-headers.js';
import { countOf, isPlainObject, objectOf, stringOf } from '../json-guards.js';
import { decodeOpenAiHttpError } from '../openai/error.js';
import { notServedFailure, unreadableReply, type OperationAdapter, type OperationReply } from '../operation-adapter.js';
import { readRerankScores } from '../rerank-results.js';

/**
 * Cohere-style rerank (`POST {base_url}/rerank`, the base URL ending in `/v2` as
 * `https://api.cohere.com/v2`): documents sent as strings, usage read from
 * `meta.billed_units.search_units` and `meta.tokens.input_tokens`.
 */
export const cohereRerankAdapter: OperationAdapter<RerankAsk, RerankResult> = {
  buildRequest: buildCohereRerankRequest,
  decodeReply: decodeCohereRerankReply,
  decodeError: (status, bodyText, headers) => notServedFailure('rerank', status, bodyText) ?? decodeOpenAiHttpError(status, bodyText, headers),
};

function buildCohereRerankRequest(ask: RerankAsk, attempt: PlannedAttempt): UpstreamRequest {
  const body: Record<string, unknown> = { model: attempt.endpoint.upstreamModel, query: ask.query, documents: ask.texts };
  if (ask.topN !== undefined) body.top_n = ask.topN;
  if (attempt.options) Object.assign(body, attempt.options);
  return { path: '/rerank', headers: bearerJsonHeaders(attempt.endpoint.provider), body };
}

function decodeCohereRerankReply(json: unknown, ask: RerankAsk): OperationReply<RerankResult> {
  const scores = isPlainObject(json) ? readRerankScores(json.results, ask) : undefined;
  if (!isPlainObject(json) || !scores) return unreadableReply('rerank', json);
  const meta = objectOf(json.meta);
  const billed = objectOf(meta?.billed_units);
  const usage: RerankUsage = {};
  const searchUnits = countOf(billed?.search_units);
  const tokens = countOf(objectOf(meta?.tokens)?.input_tokens) ?? countOf(billed?.input_tokens);
  if (searchUnits !== undefined) usage.searchUnits = searchUnits;
  if (tokens !== undefined) usage.totalTokens = tokens;
  const result: RerankResult = { scores, usage };
  const upstreamId = stringOf(json.id);
  if (upstreamId) result.upstreamId = upstreamId;
  return { ok: true, result };
}
