import { beforeAll, describe, expect, test } from 'vitest';
import type { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';
import { catalogueOf, chatCatalogue, endpoint, model } from '../../../fixtures/planner/catalogue-yaml.js';
import { measuredState } from '../../../fixtures/planner/measurements.js';
import { chatRequest, planOf, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';

const ALPHA = 'alpha/acme/chat';
const BETA = 'beta/acme/chat';
const GAMMA = 'gamma/acme/chat';

const FREE = { prompt: '0', completion: '0' };
const CHEAP = { prompt: '0.0000001', completion: '0.0000002' };
const DEAR = { prompt: '0.000003', completion: '0.000006' };

describe('rule 15: unknown models', () => {
  const catalogue = catalogueOf([
    model('qwen/qwen3-8b', [endpoint('alpha')], { family: 'qwen3' }),
    model('qwen/qwen3-32b', [endpoint('beta')], { family: 'qwen3' }),
    model('qwen/qwen3-retired', [endpoint('gamma', { disabled: true })], { family: 'qwen3' }),
  ]);

  test('an unknown model is a 404 not_found', () => {
    const error = refusalOf(catalogue, chatRequest({ models: ['nobody/nothing'] }));
    expect(error.status).toBe(404);
    expect(error.code).toBe('not_found');
    expect(error.metadata.family_variants).toBeUndefined();
  });

  test('an id naming a family with no served base model lists the served ids of the family', () => {
    const error = refusalOf(catalogue, chatRequest({ models: ['qwen/qwen3'] }));
    expect(error.status).toBe(404);
    expect(error.metadata.family_variants).toEqual(['qwen/qwen3-8b', 'qwen/qwen3-32b']);
  });

  test('a family id with a suffix still lists the family', () => {
    const error = refusalOf(catalogue, chatRequest({ models: ['qwen/qwen3:free'] }));
    expect(error.metadata.family_variants).toEqual(['qwen/qwen3-8b', 'qwen/qwen3-32b']);
  });
});

describe('models fallback order', () => {
  const catalogue = catalogueOf([
    model('acme/first', [endpoint('alpha', { pricing: DEAR }), endpoint('beta', { pricing: DEAR })]),
    model('acme/second', [endpoint('gamma', { pricing: CHEAP, supported_parameters: ['max_tokens', 'temperature'] })]),
  ]);

  test('models are tried in the caller order, even when a later one is cheaper', () => {
    const attempts = planOf(catalogue, chatRequest({ models: ['acme/first', 'acme/second'] })).attempts;
    expect(attempts.map((attempt) => [attempt.modelId, attempt.endpoint.id])).toEqual([
      ['acme/first', 'alpha/acme/first'],
      ['acme/first', 'beta/acme/first'],
      ['acme/second', 'gamma/acme/second'],
    ]);
  });

  test('a fallback model serves when the first has no eligible endpoint', () => {
    const request = chatRequest({ models: ['acme/first', 'acme/second'], parameters: { temperature: 0.5 } });
    expect(routedIds(catalogue, request)).toEqual(['gamma/acme/second']);
  });

  test('when no model of the chain can serve, every endpoint of every model is itemised', () => {
    const request = chatRequest({ models: ['acme/first', 'acme/second'], parameters: { seed: 7 } });
    const error = refusalOf(catalogue, request);
    expect(error.status).toBe(503);
    expect(rejectionsOf(error).map((rejection) => rejection.endpoint).sort()).toEqual([
      'alpha/acme/first',
      'beta/acme/first',
      'gamma/acme/second',
    ]);
  });

  test('partition model (the default) sorts within each model and keeps the model order', () => {
    const request = chatRequest({ models: ['acme/first', 'acme/second'], provider: { sort: 'price' } });
    expect(routedIds(catalogue, request)[2]).toBe('gamma/acme/second');
  });

  test('partition none sorts the endpoints of all models together', () => {
    const request = chatRequest({ models: ['acme/first', 'acme/second'], provider: { sort: 'price', partition: 'none' } });
    expect(routedIds(catalogue, request)[0]).toBe('gamma/acme/second');
  });
});

describe('model id suffixes', () => {
  test(':free routes only to zero-priced endpoints and the reply names the suffixed id', () => {
    const catalogue = chatCatalogue(endpoint('alpha', { pricing: CHEAP }), endpoint('beta', { pricing: FREE }), endpoint('gamma', { pricing: {} }));
    const attempts = planOf(catalogue, chatRequest({ models: ['acme/chat:free'] })).attempts;
    expect(attempts.map((attempt) => [attempt.endpoint.id, attempt.modelId])).toEqual([[BETA, 'acme/chat:free']]);
  });

  test(':free with no zero-priced endpoint is 503', () => {
    const catalogue = chatCatalogue(endpoint('alpha', { pricing: CHEAP }));
    expect(refusalOf(catalogue, chatRequest({ models: ['acme/chat:free'] })).status).toBe(503);
  });

  const catalogue = chatCatalogue(
    endpoint('alpha', { pricing: DEAR }),
    endpoint('beta', { pricing: CHEAP }),
    endpoint('gamma', { pricing: { prompt: '0.000001', completion: '0.000002' } }),
  );
  let state: LiveEndpointState;
  beforeAll(async () => {
    state = await measuredState({
      [ALPHA]: { ttftMs: 300, tokensPerSecond: 200 },
      [BETA]: { ttftMs: 200, tokensPerSecond: 20 },
      [GAMMA]: { ttftMs: 100, tokensPerSecond: 80 },
    });
  });

  test(':nitro orders by measured throughput, fastest first, and keeps the suffix in the reply id', () => {
    const attempts = planOf(catalogue, chatRequest({ models: ['acme/chat:nitro'] }), { state }).attempts;
    expect(attempts.map((attempt) => attempt.endpoint.id)).toEqual([ALPHA, GAMMA, BETA]);
    expect(attempts.every((attempt) => attempt.modelId === 'acme/chat:nitro')).toBe(true);
  });

  test(':floor orders by price, cheapest first, and keeps the suffix in the reply id', () => {
    const attempts = planOf(catalogue, chatRequest({ models: ['acme/chat:floor'] }), { state }).attempts;
    expect(attempts.map((attempt) => attempt.endpoint.id)).toEqual([BETA, GAMMA, ALPHA]);
    expect(attempts.every((attempt) => attempt.modelId === 'acme/chat:floor')).toBe(true);
  });

  test('an explicit provider.sort wins over the suffix', () => {
    const request = chatRequest({ models: ['acme/chat:nitro'], provider: { sort: 'latency' } });
    expect(routedIds(catalogue, request, { state })).toEqual([GAMMA, BETA, ALPHA]);
  });

  test('a model without suffix is named as asked', () => {
    expect(planOf(catalogue, chatRequest()).attempts.every((attempt) => attempt.modelId === 'acme/chat')).toBe(true);
  });
});
