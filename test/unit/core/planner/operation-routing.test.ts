import { describe, expect, test } from 'vitest';
import { catalogueOf, endpoint, model } from '../../../fixtures/planner/catalogue-yaml.js';
import { chatRequest, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';
import type { CoreRequest } from '../../../../src/core/request.js';
import { planRequest } from '../../../../src/core/planner/planner.js';
import { parseUsd } from '../../../../src/billing/money.js';
import { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';

function embeddingsEndpoint(provider: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return endpoint(provider, { output_modalities: ['embeddings'], input_modalities: ['text'], pricing: { prompt: '0.0000001' }, ...extra });
}

const catalogue = catalogueOf([
  model('acme/embed', [
    embeddingsEndpoint('alpha', { supported_dimensions: [256] }),
    embeddingsEndpoint('beta', { supported_dimensions: [256, 1024], input_modalities: ['text', 'image'] }),
    endpoint('gamma'),
  ]),
  model('acme/chat', [endpoint('alpha')]),
]);

function embeddingsRequest(operation: Partial<Extract<NonNullable<CoreRequest['operation']>, { kind: 'embeddings' }>> = {}, extra: Partial<CoreRequest> = {}): CoreRequest {
  return chatRequest({ models: ['acme/embed'], messages: [], operation: { kind: 'embeddings', parts: [], ...operation }, ...extra });
}

describe('operation routing (embeddings, rerank)', () => {
  test('only endpoints whose outputs include the operation are eligible', () => {
    expect(routedIds(catalogue, embeddingsRequest())).toEqual(['alpha/acme/embed', 'beta/acme/embed']);
  });

  test('dimensions routes only to endpoints declaring that width', () => {
    expect(routedIds(catalogue, embeddingsRequest({ dimensions: 1024 }))).toEqual(['beta/acme/embed']);
  });

  test('a width no live endpoint declares is a 400 naming dimensions', () => {
    const error = refusalOf(catalogue, embeddingsRequest({ dimensions: 512 }));
    expect(error.status).toBe(400);
    expect(error.metadata.field).toBe('dimensions');
    expect(error.metadata.supported_dimensions).toEqual([256, 1024]);
  });

  test('a part whose modality no serving endpoint declares is a 400 naming the part', () => {
    const error = refusalOf(catalogue, embeddingsRequest({ parts: [{ field: 'input[0].content[1]', modality: 'audio' }] }));
    expect(error.status).toBe(400);
    expect(error.metadata.field).toBe('input[0].content[1]');
  });

  test('a conversation is never routed to an endpoint whose only outputs are operations', () => {
    expect(routedIds(catalogue, chatRequest({ models: ['acme/embed'] }))).toEqual(['gamma/acme/embed']);
    const onlyEmbeddings = catalogueOf([model('acme/embed', [embeddingsEndpoint('alpha')])]);
    const error = refusalOf(onlyEmbeddings, chatRequest({ models: ['acme/embed'] }));
    expect(error.status).toBe(503);
    expect(rejectionsOf(error)).toEqual([{ endpoint: 'alpha/acme/embed', reason: 'serves only embeddings' }]);
  });

  test('a model none of whose endpoints serves the operation is a 502', () => {
    const error = refusalOf(catalogue, chatRequest({ messages: [], operation: { kind: 'rerank' } }));
    expect(error.status).toBe(502);
    expect(error.message).toMatch(/no endpoint serves rerank/);
  });

  test('an image part goes only to endpoints accepting images; the hold covers the prompt only, never an output ceiling', () => {
    const request = embeddingsRequest({ parts: [{ field: 'input[0].content[0]', modality: 'image' }] });
    const outcome = planRequest({
      catalogue,
      state: new LiveEndpointState(),
      verdicts: new LiveEndpointState().verdicts,
      request,
      facts: { promptTokens: 1000, messageTokens: [], toolTokens: 0, inputs: [{ modality: 'image', source: 'url' }], windowTokens: 500 },
      now: new Date('2025-07-01T12:00:00Z'),
    });
    if (!outcome.ok) throw outcome.error;
    expect(outcome.plan.attempts.map((attempt) => attempt.endpoint.id)).toEqual(['beta/acme/embed']);
    expect(outcome.plan.attempts[0]?.estimatedCost).toBe(parseUsd('0.0000001') * 1000n);
  });
});
