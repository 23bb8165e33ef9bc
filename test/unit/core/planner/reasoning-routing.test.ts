import { describe, expect, test } from 'vitest';
import type { ReasoningEffortName } from '../../../../src/core/request.js';
import { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';
import { chatCatalogue, endpoint } from '../../../fixtures/planner/catalogue-yaml.js';
import { observe } from '../../../fixtures/planner/verdicts.js';
import { chatRequest, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';

const ALPHA = 'alpha/acme/chat';
const BETA = 'beta/acme/chat';
const GAMMA = 'gamma/acme/chat';

const REASONING = ['max_tokens', 'reasoning'];

function effort(level: ReasoningEffortName) {
  return chatRequest({ reasoning: { effort: level } });
}

describe('rule 3: reasoning controls go only where reasoning is declared', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: REASONING }),
    endpoint('beta', { supported_parameters: ['max_tokens', 'reasoning_effort'] }),
    endpoint('gamma', { supported_parameters: ['max_tokens'] }),
  );

  test.each([
    ['an effort', { effort: 'high' as const }],
    ['a thinking budget', { maxTokens: 2048 }],
    ['reasoning.enabled', { enabled: true }],
  ])('%s is routed only to endpoints declaring reasoning or reasoning_effort', (_, reasoning) => {
    expect(routedIds(catalogue, chatRequest({ reasoning })).sort()).toEqual([ALPHA, BETA]);
  });

  test('an endpoint declaring neither is rejected naming reasoning', () => {
    const only = chatCatalogue(endpoint('gamma', { supported_parameters: ['max_tokens'] }));
    const error = refusalOf(only, effort('low'));
    expect(error.status).toBe(503);
    expect(rejectionsOf(error)).toEqual([{ endpoint: GAMMA, reason: expect.stringMatching(/reasoning/) }]);
  });

  test('reasoning.exclude alone does not narrow routing', () => {
    expect(routedIds(catalogue, chatRequest({ reasoning: { exclude: true } })).sort()).toEqual([ALPHA, BETA, GAMMA]);
  });
});

describe('rule 4: effort matching', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: REASONING, reasoning: { supported_efforts: ['high', 'medium', 'low'] } }),
    endpoint('beta', { supported_parameters: REASONING }),
    endpoint('gamma', { supported_parameters: REASONING, reasoning: { supported_efforts: ['high', 'low'] } }),
  );

  test('a known domain that omits the level is excluded, with no mapping to a nearby level', () => {
    const ids = routedIds(catalogue, effort('medium'));
    expect(ids).toContain(ALPHA);
    expect(ids).not.toContain(GAMMA);
  });

  test('an unknown effort domain stays eligible for any level', () => {
    expect(routedIds(catalogue, effort('xhigh'))).toEqual([BETA]);
  });

  test('a reasoning domain that lists no levels counts as unknown and stays eligible', () => {
    const partial = chatCatalogue(endpoint('alpha', { supported_parameters: REASONING, reasoning: { supports_max_tokens: true } }));
    expect(routedIds(partial, effort('minimal'))).toEqual([ALPHA]);
  });

  test('a declared level whose latest check failed is excluded', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'reasoning_effort:high', passed: false, order: 1_000 });
    const ids = routedIds(catalogue, effort('high'), { state });
    expect(ids).not.toContain(ALPHA);
    expect(ids.sort()).toEqual([BETA, GAMMA]);
  });

  test('a failed check on one level leaves the other levels eligible', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'reasoning_effort:high', passed: false, order: 1_000 });
    expect(routedIds(catalogue, effort('low'), { state })).toContain(ALPHA);
  });

  test('a declared level with no verdict stays eligible, and a later pass restores a failed one', () => {
    const state = new LiveEndpointState();
    expect(routedIds(catalogue, effort('high'), { state })).toContain(ALPHA);
    observe(state, catalogue, { endpointId: ALPHA, capability: 'reasoning_effort:high', passed: false, order: 1_000 });
    observe(state, catalogue, { endpointId: ALPHA, capability: 'reasoning_effort:high', passed: true, order: 2_000 });
    expect(routedIds(catalogue, effort('high'), { state })).toContain(ALPHA);
  });

  test('when no endpoint remains for the level the answer is 503 no_route', () => {
    const known = chatCatalogue(
      endpoint('alpha', { supported_parameters: REASONING, reasoning: { supported_efforts: ['high', 'medium', 'low'] } }),
      endpoint('gamma', { supported_parameters: REASONING, reasoning: { supported_efforts: ['high', 'low'] } }),
    );
    const error = refusalOf(known, effort('minimal'));
    expect(error.status).toBe(503);
    expect(error.code).toBe('no_route');
    expect(rejectionsOf(error).map((rejection) => rejection.endpoint).sort()).toEqual([ALPHA, GAMMA]);
    expect(error.message).toMatch(/minimal/);
  });
});

describe('rule 5: reasoning_effort none', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: REASONING, reasoning: { supported_efforts: ['high', 'none'], mandatory: false } }),
    endpoint('beta', { supported_parameters: REASONING }),
    endpoint('gamma', { supported_parameters: REASONING, reasoning: { supported_efforts: ['high'] } }),
  );

  test('a domain without an off level is excluded from none', () => {
    expect(routedIds(catalogue, effort('none')).sort()).toEqual([ALPHA, BETA]);
  });

  test('an endpoint whose latest none check found reasoning in the reply stops receiving none', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: BETA, capability: 'reasoning_none', passed: false, order: 1_000 });
    expect(routedIds(catalogue, effort('none'), { state })).toEqual([ALPHA]);
  });

  test('a failed none check does not exclude the endpoint from other levels', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: BETA, capability: 'reasoning_none', passed: false, order: 1_000 });
    expect(routedIds(catalogue, effort('high'), { state })).toContain(BETA);
  });

  test('a later passing none check lets none through again', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: BETA, capability: 'reasoning_none', passed: false, order: 1_000 });
    observe(state, catalogue, { endpointId: BETA, capability: 'reasoning_none', passed: true, order: 2_000 });
    expect(routedIds(catalogue, effort('none'), { state })).toContain(BETA);
  });

  test('when every endpoint failed its none check the answer is 503', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'reasoning_none', passed: false, order: 1_000 });
    observe(state, catalogue, { endpointId: BETA, capability: 'reasoning_none', passed: false, order: 1_000 });
    expect(refusalOf(catalogue, effort('none'), { state }).status).toBe(503);
  });
});
