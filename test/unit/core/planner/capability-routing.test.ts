import { describe, expect, test } from 'vitest';
import type { ToolDefinition } from '../../../../src/core/request.js';
import { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';
import { chatCatalogue, endpoint } from '../../../fixtures/planner/catalogue-yaml.js';
import { observe } from '../../../fixtures/planner/verdicts.js';
import { chatRequest, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';

const ALPHA = 'alpha/acme/chat';
const BETA = 'beta/acme/chat';
const GAMMA = 'gamma/acme/chat';

const WEATHER_TOOL: ToolDefinition = {
  type: 'function',
  function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } },
};

describe('rule 1: tools and structured outputs go only to endpoints declaring them', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: ['max_tokens', 'tools', 'tool_choice'] }),
    endpoint('beta', { supported_parameters: ['max_tokens', 'response_format', 'structured_outputs'] }),
    endpoint('gamma', { supported_parameters: ['max_tokens'] }),
  );

  test('a request with tools goes only to endpoints that declare tools', () => {
    expect(routedIds(catalogue, chatRequest({ tools: [WEATHER_TOOL] }))).toEqual([ALPHA]);
  });

  test('a request asking structured outputs goes only to endpoints that declare structured_outputs', () => {
    expect(routedIds(catalogue, chatRequest({ structuredOutputs: true }))).toEqual([BETA]);
  });

  test('an endpoint whose latest tools check failed is withheld from tool requests', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tools', passed: false, order: 1_000 });
    const error = refusalOf(catalogue, chatRequest({ tools: [WEATHER_TOOL] }), { state });
    expect(error.status).toBe(503);
    expect(rejectionsOf(error).find((rejection) => rejection.endpoint === ALPHA)?.reason).toMatch(/tools/);
  });

  test('a later passing tools check gives the promise back', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tools', passed: false, order: 1_000 });
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tools', passed: true, order: 2_000 });
    expect(routedIds(catalogue, chatRequest({ tools: [WEATHER_TOOL] }), { state })).toEqual([ALPHA]);
  });

  test('a failure recorded after the last pass withholds the promise again', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tools', passed: true, order: 1_000 });
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tools', passed: false, order: 2_000 });
    expect(refusalOf(catalogue, chatRequest({ tools: [WEATHER_TOOL] }), { state }).code).toBe('no_route');
  });

  test('an endpoint whose latest structured_outputs check failed is withheld until a later pass', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: BETA, capability: 'structured_outputs', passed: false, order: 1_000 });
    expect(refusalOf(catalogue, chatRequest({ structuredOutputs: true }), { state }).status).toBe(503);
    observe(state, catalogue, { endpointId: BETA, capability: 'structured_outputs', passed: true, order: 2_000 });
    expect(routedIds(catalogue, chatRequest({ structuredOutputs: true }), { state })).toEqual([BETA]);
  });

  test('a failed tools check does not withhold the endpoint from requests without tools', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tools', passed: false, order: 1_000 });
    expect(routedIds(catalogue, chatRequest(), { state })).toContain(ALPHA);
  });
});

describe('rule 2: every explicitly requested setting needs a declaration', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: ['max_tokens', 'temperature', 'top_k'] }),
    endpoint('beta', { supported_parameters: ['max_tokens', 'top_p'] }),
  );

  test('an endpoint not declaring an explicit temperature is not eligible', () => {
    expect(routedIds(catalogue, chatRequest({ parameters: { temperature: 0.2 } }))).toEqual([ALPHA]);
  });

  test('when no endpoint declares every requested setting the answer is 503 no_route itemising each endpoint', () => {
    const error = refusalOf(catalogue, chatRequest({ parameters: { temperature: 0.2, top_p: 0.9 } }));
    expect(error.status).toBe(503);
    expect(error.code).toBe('no_route');
    expect(error.errorType).toBe('no_route');
    const rejections = rejectionsOf(error);
    expect(rejections.map((rejection) => rejection.endpoint).sort()).toEqual([ALPHA, BETA]);
    expect(rejections.find((rejection) => rejection.endpoint === ALPHA)?.reason).toMatch(/top_p/);
    expect(rejections.find((rejection) => rejection.endpoint === BETA)?.reason).toMatch(/temperature/);
  });

  test('soft parameters (top_k, min_p, repetition_penalty) do not narrow routing', () => {
    const request = chatRequest({ softParameters: { top_k: 40, min_p: 0.05, repetition_penalty: 1.1 } });
    expect(routedIds(catalogue, request).sort()).toEqual([ALPHA, BETA]);
  });

  test('with provider.require_parameters soft parameters need a declaration too', () => {
    const request = chatRequest({ softParameters: { top_k: 40 }, provider: { requireParameters: true } });
    expect(routedIds(catalogue, request)).toEqual([ALPHA]);
  });

  test('with provider.require_parameters an undeclared soft parameter everywhere gives 503', () => {
    const request = chatRequest({ softParameters: { min_p: 0.05 }, provider: { requireParameters: true } });
    expect(refusalOf(catalogue, request).status).toBe(503);
  });
});

describe('tool dispatch needs the declaration and a passing check', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: ['max_tokens', 'tools'], tool_call_dispatch: true }),
    endpoint('beta', { supported_parameters: ['max_tokens', 'tools'] }),
  );
  const request = chatRequest({ stream: true, tools: [WEATHER_TOOL], toolDispatch: true });

  test('a declared endpoint with a passing tool_call_dispatch check is eligible', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tool_call_dispatch', passed: true, order: 1_000 });
    observe(state, catalogue, { endpointId: BETA, capability: 'tool_call_dispatch', passed: true, order: 1_000 });
    expect(routedIds(catalogue, request, { state })).toEqual([ALPHA]);
  });

  test('a declared endpoint never checked is not eligible', () => {
    expect(refusalOf(catalogue, request).status).toBe(503);
  });

  test('a declared endpoint whose latest check failed is not eligible', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tool_call_dispatch', passed: true, order: 1_000 });
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tool_call_dispatch', passed: false, order: 2_000 });
    expect(refusalOf(catalogue, request, { state }).status).toBe(503);
  });

  test('without the dispatch ask neither declaration nor check is needed', () => {
    expect(routedIds(catalogue, chatRequest({ tools: [WEATHER_TOOL] })).sort()).toEqual([ALPHA, BETA]);
  });
});

describe('operator switches', () => {
  test('an endpoint disabled in the file is never planned', () => {
    const catalogue = chatCatalogue(endpoint('alpha', { disabled: true }), endpoint('gamma'));
    expect(routedIds(catalogue, chatRequest())).toEqual([GAMMA]);
  });
});
