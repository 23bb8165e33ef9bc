import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunctionTool, ResponseFunctionToolCall, ResponseInputItem } from 'openai/resources/responses/responses';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const WEATHER: FunctionTool = {
  type: 'function',
  name: 'get_weather',
  description: 'Weather for a city',
  parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  strict: true,
};

const PIXEL = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/caller', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tools' }] },
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] },
      {
        id: 'acme/vision',
        endpoints: [{
          provider: 'sim-b',
          upstream_model: 'chat;tokens=3',
          input_modalities: ['text', 'image'],
          supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'parallel_tool_calls'],
        }],
      },
    ],
  });
});

afterAll(async () => harness.close());

function lastUpstreamBody(): Record<string, unknown> {
  return harness.sim.requests().at(-1)?.body as Record<string, unknown>;
}

function calls(output: unknown[]): ResponseFunctionToolCall[] {
  return output.filter((item): item is ResponseFunctionToolCall => (item as { type: string }).type === 'function_call');
}

describe('function calls', () => {
  it('a call comes back as a function_call item with call_id, name and JSON-string arguments', async () => {
    const response = await harness.client.responses.create({ model: 'acme/caller', input: 'Weather in Paris today', tools: [WEATHER] });
    const [call] = calls(response.output);
    expect(call?.name).toBe('get_weather');
    expect(call?.call_id).toBeTruthy();
    expect(call?.id).toMatch(/^fc_/);
    expect(JSON.parse(call?.arguments ?? '')).toEqual({ query: 'Weather in Paris' });
    expect(call).not.toHaveProperty('namespace');
    expect(lastUpstreamBody().tools).toEqual([{
      type: 'function',
      function: { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER.parameters, strict: true },
    }]);
  });

  it('round trip: the call and its output go back as an assistant tool call and a tool message, and the model answers', async () => {
    const first = await harness.client.responses.create({ model: 'acme/caller', input: 'Weather in Paris today', tools: [WEATHER] });
    const [call] = calls(first.output);
    if (!call) throw new Error('no call');
    const input: ResponseInputItem[] = [
      { role: 'user', content: 'Weather in Paris today' },
      call,
      { type: 'function_call_output', call_id: call.call_id, output: '{"celsius": 21}' },
    ];
    const second = await harness.client.responses.create({ model: 'acme/chat', input, tools: [WEATHER] });
    expect(second.output_text).toBe('Hello from the');
    expect(lastUpstreamBody().messages).toEqual([
      { role: 'user', content: 'Weather in Paris today' },
      { role: 'assistant', content: null, tool_calls: [{ id: call.call_id, type: 'function', function: { name: 'get_weather', arguments: call.arguments } }] },
      { role: 'tool', tool_call_id: call.call_id, content: '{"celsius": 21}' },
    ]);
  });

  it('streamed: function_call item added, argument deltas, arguments done, item done', async () => {
    const stream = await harness.client.responses.create({ model: 'acme/caller', input: 'Weather in Paris today', tools: [WEATHER], stream: true });
    const types: string[] = [];
    let args = '';
    let done = '';
    for await (const event of stream) {
      types.push(event.type);
      if (event.type === 'response.function_call_arguments.delta') args += event.delta;
      if (event.type === 'response.function_call_arguments.done') done = event.arguments;
    }
    expect(types.filter((type) => type.startsWith('response.output_item'))).toEqual(['response.output_item.added', 'response.output_item.done']);
    expect(types.filter((type) => type === 'response.function_call_arguments.delta').length).toBeGreaterThan(1);
    expect(args).toBe(done);
    expect(JSON.parse(done)).toEqual({ query: 'Weather in Paris' });
    expect(types.at(-1)).toBe('response.completed');
  });

  it('streamed parallel calls whose headers come before their arguments: both calls keep their whole arguments', async () => {
    const time: FunctionTool = { type: 'function', name: 'get_time', parameters: { type: 'object', properties: { query: { type: 'string' } } }, strict: false };
    const stream = await harness.client.responses.create({
      model: 'acme/caller',
      input: 'Weather in Paris today [[sim tool_calls=2 interleave]]',
      tools: [WEATHER, time],
      stream: true,
    });
    const done: Record<string, string> = {};
    let completed: ResponseFunctionToolCall[] = [];
    for await (const event of stream) {
      if (event.type === 'response.output_item.done' && event.item.type === 'function_call') done[event.item.name] = event.item.arguments;
      if (event.type === 'response.completed') completed = calls(event.response.output);
    }
    const expected = { get_weather: { query: 'Weather in Paris', call: 1 }, get_time: { query: 'Weather in Paris', call: 2 } };
    expect(Object.fromEntries(Object.entries(done).map(([name, args]) => [name, JSON.parse(args) as unknown]))).toEqual(expected);
    expect(completed.map((call) => [call.name, JSON.parse(call.arguments) as unknown])).toEqual(Object.entries(expected));
  });

  it('functions inside a namespace are expanded upstream and returned calls carry the namespace', async () => {
    const tools = [{
      type: 'namespace',
      name: 'weather',
      description: 'Weather tools',
      tools: [{ type: 'function', name: 'forecast', parameters: { type: 'object' } }],
    }];
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/caller', input: 'Weather in Paris today', tools } });
    const [call] = calls((reply.json as { output: unknown[] }).output);
    expect(call).toMatchObject({ type: 'function_call', name: 'forecast', namespace: 'weather' });
    expect(lastUpstreamBody().tools).toEqual([{ type: 'function', function: { name: 'weather__forecast', parameters: { type: 'object' } } }]);
    const streamed = await send(harness, { path: '/responses', body: { model: 'acme/caller', input: 'Weather in Paris today', tools, stream: true } });
    const added = streamed.text.split('\n').find((line) => line.includes('"type":"response.output_item.added"')) ?? '';
    expect((JSON.parse(added.slice(6)) as { item: unknown }).item).toMatchObject({ name: 'forecast', namespace: 'weather' });
    expect(streamed.text).not.toContain('weather__forecast');
  });

  it('a namespaced call sent back as input reaches the endpoint under its flat name', async () => {
    await send(harness, {
      path: '/responses',
      body: {
        model: 'acme/chat',
        input: [
          { role: 'user', content: 'Forecast' },
          { type: 'function_call', call_id: 'call_1', name: 'forecast', namespace: 'weather', arguments: '{}' },
          { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        ],
      },
    });
    const messages = lastUpstreamBody().messages as Array<{ tool_calls?: Array<{ function: { name: string } }> }>;
    expect(messages[1]?.tool_calls?.[0]?.function.name).toBe('weather__forecast');
  });

  it('built-in tool types are dropped; only function tools reach the endpoint', async () => {
    const reply = await send(harness, {
      path: '/responses',
      body: {
        model: 'acme/chat',
        input: 'Hi',
        tools: [{ type: 'web_search_preview' }, { type: 'local_shell' }, { type: 'function', name: 'lookup', parameters: { type: 'object' } }],
      },
    });
    expect(reply.status).toBe(200);
    expect(lastUpstreamBody().tools).toEqual([{ type: 'function', function: { name: 'lookup', parameters: { type: 'object' } } }]);
    await send(harness, { path: '/responses', body: { model: 'acme/chat', input: 'Hi', tools: [{ type: 'web_search_preview' }] } });
    expect(lastUpstreamBody()).not.toHaveProperty('tools');
  });

  it('parallel_tool_calls is advisory: sent where declared, dropped (never refused) elsewhere', async () => {
    const body = { input: 'Hi', tools: [WEATHER], parallel_tool_calls: false };
    expect((await send(harness, { path: '/responses', body: { ...body, model: 'acme/vision' } })).status).toBe(200);
    expect(lastUpstreamBody().parallel_tool_calls).toBe(false);
    expect((await send(harness, { path: '/responses', body: { ...body, model: 'acme/chat' } })).status).toBe(200);
    expect(lastUpstreamBody()).not.toHaveProperty('parallel_tool_calls');
  });

  it('tool_choice reaches the endpoint in the chat shape, a namespaced function under its flat name', async () => {
    const namespaced = { type: 'namespace', name: 'weather', description: 'Weather tools', tools: [{ type: 'function', name: 'forecast' }] };
    await send(harness, {
      path: '/responses',
      body: { model: 'acme/caller', input: 'Weather in Paris today', tools: [WEATHER, namespaced], tool_choice: { type: 'function', name: 'forecast', namespace: 'weather' } },
    });
    expect(lastUpstreamBody().tool_choice).toEqual({ type: 'function', function: { name: 'weather__forecast' } });
    await send(harness, { path: '/responses', body: { model: 'acme/caller', input: 'Weather in Paris today', tools: [WEATHER], tool_choice: 'required' } });
    expect(lastUpstreamBody().tool_choice).toBe('required');
  });

  it('a tool_choice naming no declared function is 400 naming tool_choice.name', async () => {
    const reply = await send(harness, {
      path: '/responses',
      body: { model: 'acme/chat', input: 'Hi', tools: [WEATHER], tool_choice: { type: 'function', name: 'nope' } },
    });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.metadata.field).toBe('tool_choice.name');
  });
});

describe('function results carrying pictures and files', () => {
  const input = [
    { role: 'user', content: 'Look at the chart' },
    { type: 'function_call', call_id: 'call_9', name: 'chart', arguments: '{}' },
    {
      type: 'function_call_output',
      call_id: 'call_9',
      output: [
        { type: 'input_text', text: 'Chart attached' },
        { type: 'input_image', image_url: PIXEL },
        { type: 'input_audio', input_audio: { data: 'U0lNQVVESU8=', format: 'wav' } },
      ],
    },
  ];

  it('the picture reaches the model in the next user turn, labelled with the call id; other blocks are named and dropped', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/vision', input } });
    expect(reply.status).toBe(200);
    const messages = lastUpstreamBody().messages as unknown[];
    expect(messages.slice(2)).toEqual([
      {
        role: 'tool',
        tool_call_id: 'call_9',
        content: 'Chart attached\n[input_image attached in the next user turn]\n[input_audio block dropped: not supported in a function result]',
      },
      { role: 'user', content: [{ type: 'text', text: 'Returned by function call call_9:' }, { type: 'image_url', image_url: { url: PIXEL } }] },
    ]);
    expect(JSON.stringify(messages)).not.toContain('U0lNQVVESU8=');
  });

  it('with no endpoint reading pictures, the answer is 503 naming the modality', async () => {
    const before = harness.sim.requests().length;
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/chat', input } });
    expect(reply.status).toBe(503);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/image/);
    expect(harness.sim.requests().length).toBe(before);
  });
});
