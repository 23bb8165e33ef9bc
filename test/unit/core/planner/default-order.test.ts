import { describe, expect, test } from 'vitest';
import { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';
import { chatCatalogue, endpoint } from '../../../fixtures/planner/catalogue-yaml.js';
import { degrade, measuredState } from '../../../fixtures/planner/measurements.js';
import { chatRequest, refusalOf, routedIds } from '../../../fixtures/planner/planning.js';

const ALPHA = 'alpha/acme/chat';
const BETA = 'beta/acme/chat';
const GAMMA = 'gamma/acme/chat';

const CHEAP = { prompt: '0.0000001', completion: '0.0000002' };
const MIDDLE = { prompt: '0.000001', completion: '0.000002' };
const DEAR = { prompt: '0.000003', completion: '0.000006' };

describe('default order: a price-aware choice among healthy endpoints', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { pricing: DEAR }),
    endpoint('beta', { pricing: CHEAP }),
    endpoint('gamma', { pricing: MIDDLE }),
  );

  test('the cheapest endpoint for this request goes first', () => {
    expect(routedIds(catalogue, chatRequest())).toEqual([BETA, GAMMA, ALPHA]);
  });

  test('a per-request price counts in the estimate', () => {
    const withFee = chatCatalogue(
      endpoint('alpha', { pricing: DEAR }),
      endpoint('beta', { pricing: { ...CHEAP, request: '0.5' } }),
      endpoint('gamma', { pricing: MIDDLE }),
    );
    expect(routedIds(withFee, chatRequest({ maxTokens: 100 }))).toEqual([GAMMA, ALPHA, BETA]);
  });

  test('endpoints that failed repeatedly go after the healthy ones, whatever their price', () => {
    const state = new LiveEndpointState();
    degrade(state, BETA);
    expect(routedIds(catalogue, chatRequest(), { state })).toEqual([GAMMA, ALPHA, BETA]);
  });

  test('an endpoint whose measured uptime over the last five minutes is below 80% goes after the others', async () => {
    const state = await measuredState({}, { [BETA]: { ok: 7, failed: 3 }, [GAMMA]: { ok: 8, failed: 2 } });
    expect(routedIds(catalogue, chatRequest(), { state })).toEqual([GAMMA, ALPHA, BETA]);
  });

  test('an uptime measured on fewer than 10 attempts does not reorder the default', async () => {
    const state = await measuredState({}, { [BETA]: { ok: 0, failed: 9 } });
    expect(routedIds(catalogue, chatRequest(), { state })).toEqual([BETA, GAMMA, ALPHA]);
  });

  test('measured speed does not reorder the default', async () => {
    const state = await measuredState({ [ALPHA]: { ttftMs: 50, tokensPerSecond: 500 } });
    expect(routedIds(catalogue, chatRequest(), { state })).toEqual([BETA, GAMMA, ALPHA]);
  });

  test('equal prices fall back to the endpoint id, so the order is stable', () => {
    const same = chatCatalogue(endpoint('gamma'), endpoint('alpha'), endpoint('beta'));
    expect(routedIds(same, chatRequest())).toEqual([ALPHA, BETA, GAMMA]);
  });
});

describe('session affinity', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { pricing: DEAR }),
    endpoint('beta', { pricing: CHEAP }),
    endpoint('gamma', { pricing: MIDDLE }),
  );

  test('the endpoint that served the conversation goes first for the same session id', () => {
    const state = new LiveEndpointState();
    state.sessions.remember('conversation-1', ALPHA);
    expect(routedIds(catalogue, chatRequest({ sessionId: 'conversation-1' }), { state })).toEqual([ALPHA, BETA, GAMMA]);
  });

  test('another session id keeps the default order', () => {
    const state = new LiveEndpointState();
    state.sessions.remember('conversation-1', ALPHA);
    expect(routedIds(catalogue, chatRequest({ sessionId: 'conversation-2' }), { state })).toEqual([BETA, GAMMA, ALPHA]);
  });

  test('an endpoint that has since failed repeatedly loses the preference to the healthy ones', () => {
    const state = new LiveEndpointState();
    state.sessions.remember('conversation-1', ALPHA);
    degrade(state, ALPHA);
    expect(routedIds(catalogue, chatRequest({ sessionId: 'conversation-1' }), { state })).toEqual([BETA, GAMMA, ALPHA]);
  });

  test('an endpoint the request excludes is not brought back by affinity', () => {
    const state = new LiveEndpointState();
    state.sessions.remember('conversation-1', ALPHA);
    expect(routedIds(catalogue, chatRequest({ sessionId: 'conversation-1', provider: { ignore: ['alpha'] } }), { state })).toEqual([BETA, GAMMA]);
  });
});

describe('503 no_route itemises every endpoint', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: ['max_tokens', 'temperature'] }),
    endpoint('beta', { supported_parameters: ['max_tokens', 'seed'] }),
    endpoint('gamma', { disabled: true }),
  );

  test('each rejection names the endpoint, its provider, the model and the reason', () => {
    const error = refusalOf(catalogue, chatRequest({ parameters: { temperature: 1, seed: 3 } }));
    expect(error.status).toBe(503);
    expect(error.code).toBe('no_route');
    expect(error.metadata.rejections).toEqual([
      { endpoint: ALPHA, provider: 'alpha', model: 'acme/chat', reason: 'does not declare seed' },
      { endpoint: BETA, provider: 'beta', model: 'acme/chat', reason: 'does not declare temperature' },
      { endpoint: GAMMA, provider: 'gamma', model: 'acme/chat', reason: 'disabled by the operator' },
    ]);
    expect(error.message).toMatch(/does not declare seed/);
  });

  test('eligible endpoints are not itemised and no refusal is made while one remains', () => {
    expect(routedIds(catalogue, chatRequest({ parameters: { seed: 3 } }))).toEqual([BETA]);
  });
});
