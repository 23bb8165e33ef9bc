import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ResponseFunctionToolCall, ResponseInputItem } from 'openai/resources/responses/responses';
import { send, startHarness, type Harness } from './harness.js';

const PARAMETERS = ['max_tokens', 'tools', 'tool_choice', 'temperature'];
const WEATHER = { type: 'function' as const, name: 'get_weather', parameters: { type: 'object', properties: { query: { type: 'string' } } }, strict: false };

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/claude', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;tokens=4', supported_parameters: PARAMETERS }] },
      { id: 'acme/claude-tools', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;tools', supported_parameters: PARAMETERS }] },
      { id: 'acme/claude-failing', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude;fail_after=2', supported_parameters: PARAMETERS }] },
    ],
  });
});

afterAll(async () => harness.close());

function lastUpstream(): { path: string; body: Record<string, unknown> } {
  const last = harness.sim.requests().at(-1);
  return { path: last?.path ?? '', body: last?.body as Record<string, unknown> };
}

describe('the responses dialect over an Anthropic-wire endpoint', () => {
  it('a non-streamed response is answered through the Messages wire, with usage', async () => {
    const response = await harness.client.responses.create({ model: 'acme/claude', input: 'Hello', instructions: 'Be brief' });
    expect(lastUpstream().path).toBe('/v1/messages');
    expect(lastUpstream().body).toMatchObject({ system: [{ type: 'text', text: 'Be brief' }] });
    expect(response.status).toBe('completed');
    expect(response.output_text).toBe('Hello from the provider');
    expect(response.usage?.output_tokens).toBe(4);
    expect(response.usage).not.toHaveProperty('service');
  });

  it('streamed: the client stream helper assembles the same answer', async () => {
    const final = await harness.client.responses.stream({ model: 'acme/claude', input: 'Hello' }).finalResponse();
    expect(final.output_text).toBe('Hello from the provider');
    expect(final.status).toBe('completed');
  });

  it('the ceiling ends the reply incomplete, streamed or not', async () => {
    const whole = await harness.client.responses.create({ model: 'acme/claude', input: 'Hello', max_output_tokens: 2 });
    expect(whole.status).toBe('incomplete');
    expect(whole.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(lastUpstream().body.max_tokens).toBe(2);
    const streamed = await harness.client.responses.stream({ model: 'acme/claude', input: 'Hello', max_output_tokens: 2 }).finalResponse();
    expect(streamed.status).toBe('incomplete');
  });

  it('a function call round trip: the call comes back as a function_call item and its output goes up as tool_result', async () => {
    const first = await harness.client.responses.create({ model: 'acme/claude-tools', input: 'Weather in Paris today', tools: [WEATHER] });
    const call = first.output.find((item): item is ResponseFunctionToolCall => item.type === 'function_call');
    expect(call?.name).toBe('get_weather');
    expect(JSON.parse(call?.arguments ?? '')).toEqual({ query: 'Weather in Paris' });
    if (!call) return;
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'Weather in Paris today' },
      call,
      { type: 'function_call_output', call_id: call.call_id, output: 'sunny' },
    ];
    const second = await harness.client.responses.create({ model: 'acme/claude', input, tools: [WEATHER] });
    expect(second.output_text).toBe('Hello from the provider');
    const messages = lastUpstream().body.messages as Array<{ role: string; content: unknown }>;
    expect(JSON.stringify(messages)).toContain('"tool_use_id":"' + call.call_id + '"');
  });

  it('parallel_tool_calls false reaches the endpoint as disable_parallel_tool_use, though the endpoint does not declare it', async () => {
    await harness.client.responses.create({ model: 'acme/claude-tools', input: 'Weather in Paris today', tools: [WEATHER], parallel_tool_calls: false });
    expect(lastUpstream().body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    await harness.client.responses.create({ model: 'acme/claude-tools', input: 'Weather in Paris today', tools: [WEATHER] });
    expect(lastUpstream().body).not.toHaveProperty('tool_choice');
  });

  it('streamed function call events from the Anthropic wire', async () => {
    const stream = await harness.client.responses.create({ model: 'acme/claude-tools', input: 'Weather in Paris today', tools: [WEATHER], stream: true });
    let args = '';
    const types: string[] = [];
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.function_call_arguments.done') args = event.arguments;
    }
    expect(types).toContain('response.function_call_arguments.delta');
    expect(JSON.parse(args)).toEqual({ query: 'Weather in Paris' });
    expect(types.at(-1)).toBe('response.completed');
  });

  it('a failure after commit ends with event error and response.failed', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/claude-failing', input: 'Hello', stream: true } });
    const names = reply.text.split('\n').filter((line) => line.startsWith('event: ')).map((line) => line.slice(7));
    expect(names.slice(-2)).toEqual(['error', 'response.failed']);
  });
});
