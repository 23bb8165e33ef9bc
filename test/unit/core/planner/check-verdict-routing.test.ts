import { describe, expect, test } from 'vitest';
import type { ToolDefinition } from '../../../../src/core/request.js';
import { EFFORT_REFUTATION_MS } from '../../../../src/core/capability-checks.js';
import { LiveEndpointState } from '../../../../src/stats/endpoint-state.js';
import { chatCatalogue, endpoint } from '../../../fixtures/planner/catalogue-yaml.js';
import { chatRequest, PLAN_NOW, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';
import { observe } from '../../../fixtures/planner/verdicts.js';

/** How capability check verdicts withhold promises, beyond the spec rules' own tests. */
const ALPHA = 'alpha/acme/chat';
const BETA = 'beta/acme/chat';

const TOOL: ToolDefinition = { type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } };

const HOUR = 60 * 60 * 1000;

describe('a refuted reasoning effort level is filtered only while the failed observation is current', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: ['max_tokens', 'reasoning'], reasoning: { supported_efforts: ['high', 'low'] } }),
    endpoint('beta', { supported_parameters: ['max_tokens', 'reasoning'], reasoning: { supported_efforts: ['high', 'low'] } }),
  );
  const high = chatRequest({ reasoning: { effort: 'high' } });
  const failedHigh = { endpointId: ALPHA, capability: 'reasoning_effort:high' as const, passed: false };

  test('under 24 hours old, of the serving revision and probe version: filtered', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, failedHigh, { ageMs: EFFORT_REFUTATION_MS - 1 });
    expect(routedIds(catalogue, high, { state })).toEqual([BETA]);
  });

  test('24 hours old: the level is eligible again', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, failedHigh, { ageMs: EFFORT_REFUTATION_MS });
    expect(routedIds(catalogue, high, { state }).sort()).toEqual([ALPHA, BETA]);
  });

  test('the same observation ages out as the clock moves on', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, failedHigh, { ageMs: HOUR });
    expect(routedIds(catalogue, high, { state })).toEqual([BETA]);
    const later = new Date(PLAN_NOW.getTime() + EFFORT_REFUTATION_MS);
    expect(routedIds(catalogue, high, { state, now: later }).sort()).toEqual([ALPHA, BETA]);
  });

  test('an observation of another serving revision does not filter', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, failedHigh, { revision: 'what-it-served-before' });
    expect(routedIds(catalogue, high, { state }).sort()).toEqual([ALPHA, BETA]);
  });

  test('an observation under another probe version does not filter', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, failedHigh, { probeVersion: state.verdicts.probeVersion - 1 });
    expect(routedIds(catalogue, high, { state }).sort()).toEqual([ALPHA, BETA]);
  });

  test('the rejection names the failed check and what it saw', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, failedHigh);
    observe(state, catalogue, { ...failedHigh, endpointId: BETA });
    const error = refusalOf(catalogue, high, { state });
    expect(error.code).toBe('no_route');
    expect(error.message).toContain('reasoning effort high refuted: its latest check failed (answered prose)');
  });
});

describe('a failed latest check withholds its promise whatever its age, until a later check passes', () => {
  const catalogue = chatCatalogue(
    endpoint('alpha', { supported_parameters: ['max_tokens', 'tools', 'tool_choice'], input_modalities: ['text', 'image'] }),
    endpoint('beta', { supported_parameters: ['max_tokens', 'tools', 'tool_choice'], input_modalities: ['text', 'image'] }),
  );

  test('a tools failure a week old still withholds tools, and names the check', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'tools', passed: false }, { ageMs: 7 * 24 * HOUR });
    expect(routedIds(catalogue, chatRequest({ tools: [TOOL] }), { state })).toEqual([BETA]);
    observe(state, catalogue, { endpointId: BETA, capability: 'tools', passed: false });
    const error = refusalOf(catalogue, chatRequest({ tools: [TOOL] }), { state });
    expect(rejectionsOf(error).map((rejection) => rejection.reason)).toEqual([
      'tools withheld: its latest check failed (answered prose)',
      'tools withheld: its latest check failed (answered prose)',
    ]);
  });

  test('an input modality whose latest check failed is withheld from turns carrying it (rule 10)', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, { endpointId: ALPHA, capability: 'input:image', passed: false });
    const picture = chatRequest({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] });
    expect(routedIds(catalogue, picture, { state })).toEqual([BETA]);
    expect(routedIds(catalogue, chatRequest(), { state }).sort()).toEqual([ALPHA, BETA]);
    observe(state, catalogue, { endpointId: ALPHA, capability: 'input:image', passed: true, order: 1 });
    expect(routedIds(catalogue, picture, { state }).sort()).toEqual([ALPHA, BETA]);
  });
});

describe('call-ready dispatch needs a current positive check', () => {
  const catalogue = chatCatalogue(endpoint('alpha', { supported_parameters: ['max_tokens', 'tools'], tool_call_dispatch: true }));
  const request = chatRequest({ stream: true, tools: [TOOL], toolDispatch: true });
  const passed = { endpointId: ALPHA, capability: 'tool_call_dispatch' as const, passed: true };

  test('a pass of another serving revision is not current', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, passed, { revision: 'what-it-served-before' });
    expect(rejectionsOf(refusalOf(catalogue, request, { state }))[0]?.reason).toBe('tool_call_dispatch has no current positive check');
  });

  test('a pass under another probe version is not current', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, passed, { probeVersion: state.verdicts.probeVersion + 1 });
    expect(refusalOf(catalogue, request, { state }).code).toBe('no_route');
  });

  test('a pass of what it serves now, under the checks run now, is', () => {
    const state = new LiveEndpointState();
    observe(state, catalogue, passed, { ageMs: 30 * 24 * HOUR });
    expect(routedIds(catalogue, request, { state })).toEqual([ALPHA]);
  });
});
