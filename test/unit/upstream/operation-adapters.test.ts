import { describe, expect, test } from 'vitest';
import type { EmbeddingsAsk } from '../../../src/core/embeddings.js';
import type { PlannedAttempt } from '../../../src/core/plan.js';
import type { RerankAsk } from '../../../src/core/rerank.js';
import { float32Base64 } from '../../../src/core/vector-encoding.js';
import { cohereRerankAdapter } from '../../../src/upstream/cohere/rerank.js';
import { openAiEmbeddingsAdapter } from '../../../src/upstream/openai/embeddings.js';
import { openAiRerankAdapter } from '../../../src/upstream/openai/rerank.js';
import { catalogueOf, endpoint, model } from '../../fixtures/planner/catalogue-yaml.js';

const catalogue = catalogueOf([
  model('acme/embed', [endpoint('alpha', { upstream_model: 'bge-m3', output_modalities: ['embeddings'], supported_parameters: ['input_type'] })]),
  model('acme/plain', [endpoint('alpha', { upstream_model: 'e5', output_modalities: ['embeddings'], supported_parameters: [] })]),
]);

function attemptOf(id: string): PlannedAttempt {
  const found = catalogue.endpoints.get(id);
  const owner = catalogue.models.get(found?.modelId ?? '');
  if (!found || !owner) throw new Error(`no endpoint ${id}`);
  return { model: owner, modelId: owner.id, endpoint: found, promptTokens: 0, heldCeiling: 0 };
}

const embedAsk: EmbeddingsAsk = { input: ['a', 'b'], count: 2, encoding: 'base64', inputType: 'search_document', user: 'u1', modalities: new Set(['text']) };
const rerankAsk: RerankAsk = { query: 'red apple', documents: ['x', { text: 'y', title: 't' }, 'z'], texts: ['x', 't\ny', 'z'], topN: 2, returnDocuments: true };

describe('OpenAI-compatible embeddings adapter', () => {
  test('asks for floats, sends dimensions, user, and input_type only where declared', () => {
    const built = openAiEmbeddingsAdapter.buildRequest({ ...embedAsk, dimensions: 4 }, attemptOf('alpha/acme/embed'));
    expect(built.path).toBe('/embeddings');
    expect(built.body).toEqual({ model: 'bge-m3', input: ['a', 'b'], dimensions: 4, input_type: 'search_document', user: 'u1' });
    expect(openAiEmbeddingsAdapter.buildRequest(embedAsk, attemptOf('alpha/acme/plain')).body.input_type).toBeUndefined();
  });

  test('reads float and base64 vectors by index, with the usage split', () => {
    const decoded = openAiEmbeddingsAdapter.decodeReply({
      id: 'emb-1',
      data: [{ index: 1, embedding: float32Base64([0.5, -0.25]) }, { index: 0, embedding: [1, 2] }],
      usage: { prompt_tokens: 7, prompt_tokens_details: { text_tokens: 3, image_tokens: 4 } },
    }, embedAsk);
    expect(decoded).toEqual({
      ok: true,
      result: { upstreamId: 'emb-1', vectors: [[1, 2], [0.5, -0.25]], usage: { promptTokens: 7, split: { text_tokens: 3, image_tokens: 4 } } },
    });
  });

  test.each([
    ['a missing vector', { data: [{ index: 0, embedding: [1] }] }],
    ['a repeated index', { data: [{ index: 0, embedding: [1] }, { index: 0, embedding: [2] }] }],
    ['an index past the inputs', { data: [{ index: 0, embedding: [1] }, { index: 2, embedding: [2] }] }],
    ['a vector that is not numbers', { data: [{ index: 0, embedding: ['1'] }, { index: 1, embedding: [2] }] }],
    ['no data at all', { object: 'list' }],
  ])('%s fails the attempt as a protocol failure, so routing moves on', (_, json) => {
    const decoded = openAiEmbeddingsAdapter.decodeReply(json, embedAsk);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.failure).toMatchObject({ kind: 'protocol', retryable: true });
  });

  test('a vector of another width than the dimensions asked fails the attempt', () => {
    const decoded = openAiEmbeddingsAdapter.decodeReply({ data: [{ embedding: [1, 2, 3] }, { embedding: [1, 2, 3] }] }, { ...embedAsk, dimensions: 4 });
    expect(decoded.ok).toBe(false);
  });

  test('404, 405 and 501 mean the endpoint does not serve embeddings; other statuses keep their meaning', () => {
    for (const status of [404, 405, 501]) {
      expect(openAiEmbeddingsAdapter.decodeError(status, '{}', {})).toMatchObject({ kind: 'protocol', status, retryable: true, providerMessage: 'the endpoint does not serve embeddings' });
    }
    expect(openAiEmbeddingsAdapter.decodeError(429, '{"error":{"message":"slow down"}}', { 'retry-after': '3' })).toMatchObject({ kind: 'http', status: 429, retryAfter: '3' });
  });
});

describe('rerank adapters', () => {
  test('Cohere-style: strings to {base_url}/rerank with top_n; search units and tokens from meta', () => {
    const built = cohereRerankAdapter.buildRequest(rerankAsk, attemptOf('alpha/acme/embed'));
    expect(built).toMatchObject({ path: '/rerank', body: { model: 'bge-m3', query: 'red apple', documents: ['x', 't\ny', 'z'], top_n: 2 } });
    expect(built.body.return_documents).toBeUndefined();
    const decoded = cohereRerankAdapter.decodeReply({
      id: 'r1',
      results: [{ index: 1, relevance_score: 0.9 }, { index: 2, relevance_score: 0.1 }],
      meta: { billed_units: { search_units: 1 }, tokens: { input_tokens: 12 } },
    }, rerankAsk);
    expect(decoded).toEqual({ ok: true, result: { upstreamId: 'r1', scores: [{ index: 1, relevanceScore: 0.9 }, { index: 2, relevanceScore: 0.1 }], usage: { searchUnits: 1, totalTokens: 12 } } });
  });

  test('OpenAI-compatible: usage.total_tokens, no search units', () => {
    const decoded = openAiRerankAdapter.decodeReply({
      results: [{ index: 0, relevance_score: 0.2, document: { text: 'x' } }, { index: 2, relevance_score: 0.3 }],
      usage: { total_tokens: 20 },
    }, rerankAsk);
    expect(decoded).toEqual({ ok: true, result: { scores: [{ index: 0, relevanceScore: 0.2 }, { index: 2, relevanceScore: 0.3 }], usage: { totalTokens: 20 } } });
  });

  test.each([
    ['fewer results than top_n', { results: [{ index: 0, relevance_score: 0.2 }] }],
    ['an index past the documents', { results: [{ index: 0, relevance_score: 0.2 }, { index: 3, relevance_score: 0.1 }] }],
    ['a repeated index', { results: [{ index: 0, relevance_score: 0.2 }, { index: 0, relevance_score: 0.1 }] }],
    ['a score that is not a number', { results: [{ index: 0, relevance_score: '0.2' }, { index: 1, relevance_score: 0.1 }] }],
  ])('%s fails the attempt', (_, json) => {
    expect(cohereRerankAdapter.decodeReply(json, rerankAsk).ok).toBe(false);
    expect(openAiRerankAdapter.decodeReply(json, rerankAsk).ok).toBe(false);
  });

  test('a Cohere error body keeps its message', () => {
    expect(cohereRerankAdapter.decodeError(400, '{"id":"x","message":"invalid request: query is empty"}', {})).toMatchObject({
      kind: 'http',
      status: 400,
      providerMessage: 'invalid request: query is empty',
    });
    expect(cohereRerankAdapter.decodeError(404, 'Not Found', {})).toMatchObject({ kind: 'protocol', providerMessage: 'the endpoint does not serve rerank' });
  });
});
