import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import { startHarness, type Harness } from './harness.js';
import { anthropicClient, lastUpstreamBody } from './messages-client.js';

const PIXEL = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNgAAAAAgABSK+kcQAAAABJRU5ErkJggg==';

const WEATHER: Anthropic.Tool = {
  name: 'get_weather',
  description: 'Weather for a city',
  input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
};

let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/tools', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', input_modalities: ['text', 'image'] }] },
      {
        id: 'acme/parallel',
        endpoints: [{
          provider: 'sim-b',
          upstream_model: 'chat',
          supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'parallel_tool_calls'],
        }],
      },
    ],
  });
  client = anthropicClient(harness);
});

afterAll(async () => harness.close());

describe('tools in the messages dialect', () => {
  it('round trip: tool_use, then tool_result, then the answer', async () => {
    const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris today [[sim tools]]' };
    const first = await client.messages.create({ model: 'acme/tools', max_tokens: 256, tools: [WEATHER], messages: [question] });
    expect(first.stop_reason).toBe('tool_use');
    const call = first.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    expect(call?.name).toBe('get_weather');
    expect(call?.input).toEqual({ query: 'Weather in Paris' });
    expect(call?.id).toBeTruthy();
    expect(lastUpstreamBody(harness).tools).toEqual([{
      type: 'function',
      function: { name: 'get_weather', description: 'Weather for a city', parameters: WEATHER.input_schema },
    }]);

    const second = await client.messages.create({
      model: 'acme/tools',
      max_tokens: 256,
      tools: [WEATHER],
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: call?.id ?? '', content: 'Sunny, 24°C' }, { type: 'text', text: 'Thanks [[sim tokens=3]]' }] },
      ],
    });
    expect(second.stop_reason).toBe('end_turn');
    expect(second.content).toEqual([{ type: 'text', text: 'Hello from the' }]);
    const messages = lastUpstreamBody(harness).messages as Array<Record<string, unknown>>;
    expect(messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: call?.id, type: 'function', function: { name: 'get_weather', arguments: JSON.stringify({ query: 'Weather in Paris' }) } }],
      },
      { role: 'tool', tool_call_id: call?.id, content: 'Sunny, 24°C' },
      { role: 'user', content: [{ type: 'text', text: 'Thanks [[sim tokens=3]]' }] },
    ]);
  });

  it('a streamed tool call arrives as input_json_delta fragments the client assembles', async () => {
    const final = await client.messages.stream({
      model: 'acme/tools',
      max_tokens: 256,
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Rome now [[sim tools]]' }],
    }).finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    const call = final.content.find((block): block is Anthropic.ToolUseBlock => block.type === 'tool_use');
    expect(call?.input).toEqual({ query: 'Weather in Rome' });
  });

  it('parallel calls whose headers come before their arguments stream as whole blocks, one after the other', async () => {
    const time: Anthropic.Tool = { name: 'get_time', input_schema: { type: 'object', properties: { query: { type: 'string' } } } };
    const stream = client.messages.stream({
      model: 'acme/tools',
      max_tokens: 256,
      tools: [WEATHER, time],
      messages: [{ role: 'user', content: 'Weather in Rome now [[sim tool_calls=2 interleave]]' }],
    });
    let open: number | undefined;
    for await (const event of stream) {
      if (event.type === 'content_block_start') {
        expect(open, 'a block starts while another is open').toBeUndefined();
        open = event.index;
      } else if (event.type === 'content_block_delta') {
        expect(event.index).toBe(open);
      } else if (event.type === 'content_block_stop') {
        expect(event.index).toBe(open);
        open = undefined;
      }
    }
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content.map((block) => (block.type === 'tool_use' ? [block.name, block.input] : block.type))).toEqual([
      ['get_weather', { query: 'Weather in Rome', call: 1 }],
      ['get_time', { query: 'Weather in Rome', call: 2 }],
    ]);
  });

  it('tool_choice any requires a call, tool names the function, none and auto pass through', async () => {
    const cases: Array<[Anthropic.ToolChoice, unknown]> = [
      [{ type: 'any' }, 'required'],
      [{ type: 'tool', name: 'get_weather' }, { type: 'function', function: { name: 'get_weather' } }],
      [{ type: 'none' }, 'none'],
      [{ type: 'auto' }, 'auto'],
    ];
    for (const [choice, upstream] of cases) {
      await client.messages.create({
        model: 'acme/tools',
        max_tokens: 64,
        tools: [WEATHER],
        tool_choice: choice,
        messages: [{ role: 'user', content: 'Weather in Oslo [[sim tools]]' }],
      });
      expect(lastUpstreamBody(harness).tool_choice).toEqual(upstream);
    }
  });

  it('disable_parallel_tool_use asks for one call per turn where the endpoint declares it', async () => {
    await client.messages.create({
      model: 'acme/parallel',
      max_tokens: 64,
      tools: [WEATHER],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      messages: [{ role: 'user', content: 'Weather [[sim tools]]' }],
    });
    expect(lastUpstreamBody(harness).parallel_tool_calls).toBe(false);
    await client.messages.create({
      model: 'acme/tools',
      max_tokens: 64,
      tools: [WEATHER],
      tool_choice: { type: 'auto', disable_parallel_tool_use: true },
      messages: [{ role: 'user', content: 'Weather [[sim tools]]' }],
    });
    expect(lastUpstreamBody(harness)).not.toHaveProperty('parallel_tool_calls');
  });

  it('a tool result carrying an image reaches the model as a user part labelled with the call id', async () => {
    await client.messages.create({
      model: 'acme/tools',
      max_tokens: 64,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Show the radar' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { query: 'radar' } }] },
        {
          role: 'user',
          content: [{
            type: 'tool_result',
            tool_use_id: 'toolu_1',
            content: [{ type: 'text', text: 'Radar attached' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PIXEL } }],
          }],
        },
      ],
    });
    const messages = lastUpstreamBody(harness).messages as Array<Record<string, unknown>>;
    expect(messages.slice(2)).toEqual([
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Radar attached' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Returned by tool call toolu_1:' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PIXEL}` } },
        ],
      },
    ]);
  });

  it('a failed tool result is marked as an error for the model', async () => {
    await client.messages.create({
      model: 'acme/tools',
      max_tokens: 64,
      tools: [WEATHER],
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'get_weather', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_2', content: 'city missing', is_error: true }] },
      ],
    });
    const messages = lastUpstreamBody(harness).messages as Array<Record<string, unknown>>;
    expect(messages.at(-1)).toEqual({ role: 'tool', tool_call_id: 'toolu_2', content: 'Error: city missing' });
  });

  it('a search the client performs is its own function tool, each call one tool_use block', async () => {
    const search: Anthropic.Tool = { name: 'web_search', description: 'Search the web', input_schema: { type: 'object', properties: { query: { type: 'string' } } } };
    const reply = await client.messages.create({
      model: 'acme/tools',
      max_tokens: 64,
      tools: [search],
      messages: [{ role: 'user', content: 'Latest news [[sim tools]]' }],
    });
    expect(reply.content.filter((block) => block.type === 'tool_use').map((block) => block.type === 'tool_use' && block.name)).toEqual(['web_search']);
  });
});
