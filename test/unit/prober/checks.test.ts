import Fastify from 'fastify';
import { describe, expect, test } from 'vitest';
import type { EndpointEntry } from '../../../src/catalogue/types.js';
import type { UpstreamFailure } from '../../../src/core/events.js';
import { ChatRequestSchema } from '../../../src/dialects/chat/schema.js';
import { CHECK_TABLE } from '../../../src/prober/check-table.js';
import { inputModalitiesCheck } from '../../../src/prober/checks/input-modalities.js';
import { judgeReasoned, judgeUnreasoned, reasoningEffortCheck, reasoningNoneCheck } from '../../../src/prober/checks/reasoning.js';
import { judgeStructured, structuredOutputsCheck } from '../../../src/prober/checks/structured-outputs.js';
import { judgeDispatch, toolDispatchCheck } from '../../../src/prober/checks/tool-dispatch.js';
import { judgeToolCall, toolsCheck } from '../../../src/prober/checks/tools.js';
import type { ProbeReply } from '../../../src/prober/probe.js';
import { chatCatalogue, endpoint } from '../../fixtures/planner/catalogue-yaml.js';

function endpointOf(extra: Record<string, unknown>): EndpointEntry {
  const entry = chatCatalogue(endpoint('alpha', extra)).endpoints.get('alpha/acme/chat');
  if (!entry) throw new Error('no endpoint');
  return entry;
}

function answer(message: Record<string, unknown>, reasoningTokens?: number): ProbeReply {
  const usage = reasoningTokens === undefined ? {} : { completion_tokens_details: { reasoning_tokens: reasoningTokens } };
  return { kind: 'answer', body: { choices: [{ index: 0, message: { role: 'assistant', content: null, ...message } }], usage } };
}

function failed(failure: UpstreamFailure): ProbeReply {
  return { kind: 'failed', status: 502, message: 'failed', failures: [failure] };
}

const call = (name: string, args: string) => ({ tool_calls: [{ id: 'call_1', type: 'function', function: { name, arguments: args } }] });

const EVERYTHING = endpointOf({
  supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'response_format', 'structured_outputs', 'reasoning'],
  reasoning: { supported_efforts: ['high', 'low', 'none'] },
  input_modalities: ['text', 'image', 'audio', 'file', 'video'],
  tool_call_dispatch: true,
});

describe('which endpoints each check applies to, from their declarations', () => {
  test('an endpoint declaring every promise gets one probe per capability', () => {
    const capabilities = CHECK_TABLE.flatMap((check) => check.probes(EVERYTHING)).map((probe) => probe.capability);
    expect(capabilities).toEqual([
      'tools', 'structured_outputs', 'reasoning_effort:high', 'reasoning_effort:low', 'reasoning_none',
      'tool_call_dispatch', 'input:image', 'input:audio', 'input:file',
    ]);
  });

  test('an endpoint declaring none of them gets no probe', () => {
    expect(CHECK_TABLE.flatMap((check) => check.probes(endpointOf({})))).toEqual([]);
  });

  test('every probe is a valid chat request once pinned', async () => {
    // validated as the chat route validates it (ajv with the discriminator keyword)
    const app = Fastify({ ajv: { customOptions: { discriminator: true } } });
    app.post('/', { schema: { body: ChatRequestSchema } }, async () => ({}));
    for (const probe of CHECK_TABLE.flatMap((check) => check.probes(EVERYTHING))) {
      const payload = { ...probe.body, model: 'acme/chat', provider: { only: ['alpha'], allow_fallbacks: false } };
      const reply = await app.inject({ method: 'POST', url: '/', payload });
      expect(reply.statusCode, `${probe.capability}: ${reply.body}`).toBe(200);
    }
    await app.close();
  });

  test('a forced tool_choice only where tool_choice is declared, else auto', () => {
    expect(toolsCheck.probes(EVERYTHING)[0]?.body.tool_choice).toEqual({ type: 'function', function: { name: 'probe_lookup' } });
    expect(toolsCheck.probes(endpointOf({ supported_parameters: ['tools'] }))[0]?.body).not.toHaveProperty('tool_choice');
  });

  test('structured outputs need response_format declared beside them', () => {
    expect(structuredOutputsCheck.probes(endpointOf({ supported_parameters: ['structured_outputs'] }))).toEqual([]);
  });

  test('effort none is checked where a request naming it can be routed: none declared, or no levels declared', () => {
    expect(reasoningNoneCheck.probes(endpointOf({ supported_parameters: ['reasoning'], reasoning: { supported_efforts: ['high'] } }))).toEqual([]);
    expect(reasoningNoneCheck.probes(endpointOf({ supported_parameters: ['reasoning_effort'] }))).toHaveLength(1);
    expect(reasoningEffortCheck.probes(endpointOf({ supported_parameters: ['reasoning_effort'] }))).toEqual([]);
  });

  test('dispatch needs the declaration and tools', () => {
    expect(toolDispatchCheck.probes(endpointOf({ supported_parameters: ['tools'] }))).toEqual([]);
    expect(toolDispatchCheck.probes(endpointOf({ supported_parameters: ['tools'], tool_call_dispatch: true }))[0]?.body).toMatchObject({ stream: true, stream_options: { include_tool_dispatch: true } });
  });

  test('an input modality is checked only where bytes in the sample container are taken', () => {
    const urlOnly = endpointOf({ input_modalities: ['text', 'image'], input_sources: { image: ['url'] } });
    const jpegOnly = endpointOf({ input_modalities: ['text', 'image'], input_containers: { image: ['jpeg'] } });
    expect(inputModalitiesCheck.probes(urlOnly)).toEqual([]);
    expect(inputModalitiesCheck.probes(jpegOnly)).toEqual([]);
  });

  test('an endpoint answering no conversation is not checked', () => {
    expect(CHECK_TABLE.flatMap((check) => check.probes(endpointOf({ supported_parameters: ['tools'], output_modalities: ['embeddings'] })))).toEqual([]);
  });
});

describe('tools: a parseable call of the declared tool, not prose', () => {
  test('passes on a call of probe_lookup with JSON arguments', () => {
    expect(judgeToolCall(answer(call('probe_lookup', '{"query":"switchyard"}')))).toEqual({ passed: true, detail: 'called probe_lookup with JSON arguments' });
  });

  test('fails on prose, quoting it', () => {
    expect(judgeToolCall(answer({ content: 'Switchyard is a gateway.' }))).toEqual({ passed: false, detail: 'answered prose instead of calling probe_lookup: "Switchyard is a gateway."' });
  });

  test('fails on a call of an undeclared tool, or arguments that are not a JSON object', () => {
    expect(judgeToolCall(answer(call('search', '{}')))).toMatchObject({ passed: false, detail: 'called search, which the request did not declare' });
    expect(judgeToolCall(answer(call('probe_lookup', '{"query": "sw')))).toMatchObject({ passed: false, detail: 'the arguments of probe_lookup are not a JSON object' });
  });

  test('prose under the forced tool_choice (the contract failing) fails', () => {
    const reply = failed({ kind: 'contract', retryable: true, providerMessage: 'the endpoint answered without the tool call that tool_choice naming function probe_lookup requires' });
    expect(judgeToolCall(reply)).toMatchObject({ passed: false, detail: expect.stringContaining('without the tool call') });
  });

  test('an outage, a timeout or a rate limit says nothing: inconclusive', () => {
    expect(judgeToolCall(failed({ kind: 'http', status: 503, retryable: true }))).toHaveProperty('inconclusive');
    expect(judgeToolCall(failed({ kind: 'timeout', retryable: true }))).toHaveProperty('inconclusive');
    expect(judgeToolCall(failed({ kind: 'http', status: 429, retryable: true }))).toHaveProperty('inconclusive');
    expect(judgeToolCall({ kind: 'failed', status: 503, message: 'No live endpoint', failures: [] })).toHaveProperty('inconclusive');
  });
});

describe('structured outputs: JSON matching the schema', () => {
  test('passes on matching JSON', () => {
    expect(judgeStructured(answer({ content: '{"city":"Paris","population":2100000}' }))).toMatchObject({ passed: true });
  });

  test('fails on prose, on JSON of the wrong shape, on members the schema does not have', () => {
    expect(judgeStructured(answer({ content: 'Paris, about two million.' }))).toMatchObject({ passed: false, detail: expect.stringContaining('not a JSON object') });
    expect(judgeStructured(answer({ content: '{"city":"Paris","population":"many"}' }))).toMatchObject({ passed: false, detail: expect.stringContaining('population is not an integer') });
    expect(judgeStructured(answer({ content: '{"city":"Paris","population":1,"note":"x"}' }))).toMatchObject({ passed: false, detail: expect.stringContaining('note') });
  });

  test('a provider refusing response_format (400) fails, naming its message', () => {
    const reply = failed({ kind: 'http', status: 400, retryable: false, providerMessage: "Unsupported parameter: 'response_format'" });
    expect(judgeStructured(reply)).toEqual({ passed: false, detail: "the provider refused it (400: Unsupported parameter: 'response_format')" });
  });
});

describe('effort levels: reasoning shown or accounted; none: no reasoning in the reply', () => {
  test('a level passes on reasoning tokens in the usage, or reasoning in the reply', () => {
    expect(judgeReasoned(answer({ content: '391' }, 24))).toEqual({ passed: true, detail: 'reasoned: 24 reasoning tokens' });
    expect(judgeReasoned(answer({ content: '391', reasoning: '17 × 23 …' }))).toMatchObject({ passed: true });
  });

  test('a level fails when there is neither', () => {
    expect(judgeReasoned(answer({ content: '391' }, 0))).toEqual({ passed: false, detail: 'no reasoning in the reply and no reasoning tokens in its usage' });
  });

  test('none passes without reasoning in the reply, and fails with it', () => {
    expect(judgeUnreasoned(answer({ content: '391' }))).toMatchObject({ passed: true });
    expect(judgeUnreasoned(answer({ content: '391', reasoning_details: [{ type: 'reasoning.text', text: 'hmm' }] }, 3))).toEqual({ passed: false, detail: 'reasoning appeared in the reply (3 reasoning tokens)' });
  });
});

describe('tool-call dispatch: the whole call as an event, matching the streamed call', () => {
  const chunk = (delta: Record<string, unknown>) => `data: ${JSON.stringify({ choices: [{ index: 0, delta }] })}\n\n`;
  const fragments = chunk({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'probe_lookup', arguments: '{"query":"switchyard"}' } }] });
  const dispatch = (id: string, args: string) => `event: tool_call_dispatch\ndata: ${JSON.stringify({ choice_index: 0, tool_call: { index: 0, id, type: 'function', function: { name: 'probe_lookup', arguments: args } } })}\n\n`;

  test('passes when the dispatched call is the streamed one', () => {
    expect(judgeDispatch({ kind: 'stream', text: `${fragments}${dispatch('call_1', '{"query":"switchyard"}')}data: [DONE]\n\n` })).toMatchObject({ passed: true });
  });

  test('fails without a dispatch event, saying the call came only as fragments', () => {
    expect(judgeDispatch({ kind: 'stream', text: `${fragments}data: [DONE]\n\n` })).toEqual({ passed: false, detail: 'no tool_call_dispatch event in the stream (the call came only as fragments)' });
  });

  test('fails when the dispatched call is not the streamed one', () => {
    expect(judgeDispatch({ kind: 'stream', text: `${fragments}${dispatch('call_9', '{}')}` })).toMatchObject({ passed: false, detail: expect.stringContaining('call_9') });
  });
});

describe('input modalities: the sample is answered, not refused', () => {
  const [image] = inputModalitiesCheck.probes(EVERYTHING);

  test('an answer passes', () => {
    expect(image?.judge(answer({ content: 'pixel' }))).toEqual({ passed: true, detail: 'accepted a 1×1 PNG' });
  });

  test('a provider refusing the part fails, naming why', () => {
    const reply = failed({ kind: 'http', status: 400, retryable: false, providerMessage: 'This model does not accept image input.' });
    expect(image?.judge(reply)).toEqual({ passed: false, detail: 'the provider refused it (400: This model does not accept image input.)' });
  });
});
