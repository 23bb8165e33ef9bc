import type { DecodedOperation } from '../../core/decoded-operation.js';
import type { RerankAsk } from '../../core/rerank.js';
import { TokenEstimator } from '../../core/token-estimate.js';
import { readSessionHeader, type HeaderBag } from '../shared/request-headers.js';
import { singleCallRequest } from '../shared/single-call-request.js';
import type { RerankRequestBody } from './schema.js';
import { readDocument, scoredText } from './documents.js';

/** Rerank wire → the routing request, the planner's facts and the core ask. */
export function decodeRerankRequest(body: RerankRequestBody, headers: HeaderBag): DecodedOperation<RerankAsk> {
  const texts = body.documents.map((document, index) => scoredText(readDocument(document, index)));
  const ask: RerankAsk = { query: body.query, documents: body.documents, texts, returnDocuments: body.return_documents === true };
  if (body.top_n !== undefined) ask.topN = body.top_n;
  if (body.user !== undefined) ask.user = body.user;
  const request = singleCallRequest(body, headers, { operation: { kind: 'rerank' } });
  const session = readSessionHeader(headers);
  if (session !== undefined) request.sessionId = session;
  return { request, facts: rerankFacts(body.query, texts), ask };
}

/**
 * The hold estimates every query-document pair (each is scored on its own). Only the query must fit
 * an endpoint's window: rerank engines truncate long documents themselves.
 */
function rerankFacts(query: string, texts: readonly string[]): DecodedOperation<RerankAsk>['facts'] {
  const estimator = new TokenEstimator();
  const queryTokens = estimator.count(query);
  const promptTokens = texts.reduce((sum, text) => sum + queryTokens + estimator.count(text), 0);
  return { promptTokens, messageTokens: [], toolTokens: 0, inputs: [], windowTokens: queryTokens };
}
