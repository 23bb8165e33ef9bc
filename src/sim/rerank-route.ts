import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { ParsedBody } from './chat-route.js';
import { sendError, sendJson } from './json-reply.js';
import { isPlainObject } from '../core/plain-object.js';
import { resolveOperationBehaviour, servesOperation, type OperationBehaviour } from './operation-behaviour.js';
import { countTextPromptTokens } from './prompt-tokens.js';

/** Which rerank wire a request arrived on: Cohere-style `/v2/rerank`, or an OpenAI-compatible `/rerank`. */
export type RerankWire = 'cohere' | 'openai';

const WORD = /[\p{L}\p{N}]+/gu;

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(WORD) ?? []));
}

/**
 * A deterministic relevance in [0, 1): the share of the query's words the document holds, plus a
 * tie-breaker below 0.001 drawn from SHA-256 of the pair, rounded to 6 places.
 */
export function relevanceScore(query: string, document: string): number {
  const asked = words(query);
  const held = words(document);
  const overlap = [...asked].filter((word) => held.has(word)).length;
  const tie = createHash('sha256').update(`${query}\u0000${document}`).digest().readUInt16BE(0) / 65536 / 1000;
  return Math.round(((overlap / (asked.size + 1)) + tie) * 1e6) / 1e6;
}

function tokens(text: string): number {
  return countTextPromptTokens(text);
}

function documentText(document: unknown): string | undefined {
  if (typeof document === 'string') return document;
  return isPlainObject(document) && typeof document.text === 'string' ? document.text : undefined;
}

/** Cohere bills one search unit per query per 100 documents. */
function usageMembers(wire: RerankWire, query: string, texts: readonly string[], behaviour: OperationBehaviour): Record<string, unknown> {
  if (behaviour.usage === 'none') return wire === 'cohere' ? { meta: { api_version: { version: '2' } } } : {};
  const zero = behaviour.usage === 'zero';
  const total = zero ? 0 : texts.reduce((sum, text) => sum + tokens(query) + tokens(text), 0);
  if (wire === 'openai') return { usage: { total_tokens: total } };
  const searchUnits = zero ? 0 : Math.ceil(texts.length / 100);
  return { meta: { api_version: { version: '2' }, billed_units: { search_units: searchUnits }, tokens: { input_tokens: total } } };
}

/**
 * `POST /v2/rerank` (Cohere-style) and `POST /v1/rerank` or `/rerank` (OpenAI-compatible servers):
 * documents scored by word overlap with the query, best first, cut to `top_n`; the OpenAI-compatible
 * wire echoes `document.text` when `return_documents` is true.
 */
export function handleRerank(res: ServerResponse, parsed: ParsedBody, wire: RerankWire, sequence: number): void {
  if (!parsed.ok || !isPlainObject(parsed.value)) return sendError(res, 400, 'We could not parse the JSON body of your request.');
  const body = parsed.value;
  const model = typeof body.model === 'string' ? body.model : '';
  if (model === '') return sendError(res, 400, 'you must provide a model parameter', { param: 'model' });
  if (!servesOperation(model, 'rerank')) return sendError(res, 404, `The model ${model} does not support rerank`, { code: 'model_not_supported' });
  const resolved = resolveOperationBehaviour(model);
  if (!resolved.ok) return sendError(res, 400, resolved.problem, { param: 'model', code: 'invalid_simulator_behaviour' });
  if (resolved.behaviour.errorStatus !== undefined) return sendError(res, resolved.behaviour.errorStatus, `simulated failure ${resolved.behaviour.errorStatus}`);
  const query = body.query;
  const texts = Array.isArray(body.documents) ? body.documents.map(documentText) : [];
  if (typeof query !== 'string' || texts.length === 0 || texts.some((text) => text === undefined)) {
    return sendError(res, 400, "'query' must be a string and 'documents' a non-empty list of strings", { param: 'documents' });
  }
  const documents = texts as string[];
  const topN = typeof body.top_n === 'number' && body.top_n >= 1 ? body.top_n : documents.length;
  const results = documents
    .map((text, index) => ({ index, relevance_score: relevanceScore(query, text), ...(wire === 'openai' && body.return_documents === true && { document: { text } }) }))
    .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
    .slice(0, topN);
  const id = `rerank-sim${sequence}`;
  sendJson(res, 200, { id, ...(wire === 'openai' && { model }), results, ...usageMembers(wire, query, documents, resolved.behaviour) });
}
