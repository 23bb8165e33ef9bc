import type { PlannedAttempt } from '../../core/plan.js';
import type { RerankAsk, RerankResult, RerankUsage } from '../../core/rerank.js';
import type { UpstreamRequest } from '../types.js';
import { bearerJsonHeaders } from '../bearer-headers.js';
import { countOf, isPlainObject, objectOf, stringOf } from '../json-guards.js';
import { decodeOpenAiHttpError } from './error.js';
import { notServedFailure, unreadableReply, type OperationAdapter, type OperationReply } from '../operation-adapter.js';
import { readRerankScores } from '../rerank-results.js';

/**
 * Rerank on OpenAI-compatible servers that expose `/rerank` beside `/chat/completions` (vLLM,
 * Jina-style APIs): documents sent as strings, usage read from `usage.total_tokens`.
 */
export const openAiRerankAdapter: OperationAdapter<RerankAsk, RerankResult> = {
  buildRequest: buildOpenAiRerankRequest,
  decodeReply: decodeOpenAiRerankReply,
  decodeError: (status, bodyText, headers) => notServedFailure('rerank', status, bodyText) ?? decodeOpenAiHttpError(status, bodyText, headers),
};

function buildOpenAiRerankRequest(ask: RerankAsk, attempt: PlannedAttempt): UpstreamRequest {
  const body: Record<string, unknown> = { model: attempt.endpoint.upstreamModel, query: ask.query, documents: ask.texts };
  if (ask.topN !== undefined) body.top_n = ask.topN;
  if (ask.user !== undefined) body.user = ask.user;
  if (attempt.options) Object.assign(body, attempt.options);
  return { path: '/rerank', headers: bearerJsonHeaders(attempt.endpoint.provider), body };
}

function decodeOpenAiRerankReply(json: unknown, ask: RerankAsk): OperationReply<RerankResult> {
  const scores = isPlainObject(json) ? readRerankScores(json.results, ask) : undefined;
  if (!isPlainObject(json) || !scores) return unreadableReply('rerank', json);
  const reported = objectOf(json.usage);
  const usage: RerankUsage = {};
  const tokens = countOf(reported?.total_tokens) ?? countOf(reported?.prompt_tokens);
  const searchUnits = countOf(reported?.search_units);
  if (tokens !== undefined) usage.totalTokens = tokens;
  if (searchUnits !== undefined) usage.searchUnits = searchUnits;
  const result: RerankResult = { scores, usage };
  const upstreamId = stringOf(json.id);
  if (upstreamId) result.upstreamId = upstreamId;
  return { ok: true, result };
}
