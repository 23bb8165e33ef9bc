import { afterEach, describe, expect, it } from 'vitest';
import { buildAnthropicRequest } from '../../../../src/upstream/anthropic/request.js';
import type { CoreMessage } from '../../../../src/core/request.js';
import { attemptAt, coreRequest } from './fixture.js';

const THINKING = { supported_parameters: ['max_tokens', 'reasoning'] };

function bodyOf(members: Parameters<typeof coreRequest>[0] = {}, extra: Record<string, unknown> = {}, ceiling?: number): Record<string, unknown> {
  return buildAnthropicRequest(coreRequest(members), attemptAt(extra, ceiling === undefined ? {} : { ceiling })).body;
}

describe('Anthropic request: conversation', () => {
  it('hoists system and developer messages, wherever they stand, into system text blocks in order', () => {
    const body = bodyOf({
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
        { role: 'developer', content: [{ type: 'text', text: 'Use French.' }] },
      ],
    });
    expect(body.system).toEqual([{ type: 'text', text: 'Be brief.' }, { type: 'text', text: 'Use French.' }]);
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }]);
  });

  it('sends no system member when there is no system text', () => {
    expect(bodyOf()).not.toHaveProperty('system');
  });

  it('reads user parts: pictures by data URL or URL, PDF and text files as documents; audio has no block', () => {
    const body = bodyOf({
      messages: [{
        role: 'user',
        content: [
          { type: 'text', text: 'Look' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
          { type: 'image_url', image_url: { url: 'https://example.com/a.jpg' } },
          { type: 'image_url', image_url: { url: 'data:image/svg+xml,%3Csvg%2F%3E' } },
          { type: 'file', file: { filename: 'a.pdf', file_data: 'data:application/pdf;base64,JVBERi0=' } },
          { type: 'file', file: { filename: 'a.txt', file_data: 'data:text/plain;base64,aGVsbG8=' } },
          { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
        ],
      }],
    });
    expect(body.messages).toEqual([{
      role: 'user',
      content: [
        { type: 'text', text: 'Look' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.jpg' } },
        { type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') } },
        { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERi0=' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'hello' } },
      ],
    }]);
  });

  it('turns tool calls into tool_use blocks and tool messages into tool_result blocks of one user turn', () => {
    const messages: CoreMessage[] = [
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: 'Checking.',
        tool_calls: [
          { id: 'toolu_1', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'toolu_2', type: 'function', function: { name: 'time', arguments: 'not json' } },
        ],
      },
      { role: 'tool', tool_call_id: 'toolu_1', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'toolu_2', content: [{ type: 'text', text: 'Noon' }] },
      { role: 'user', content: 'Thanks' },
    ];
    expect(bodyOf({ messages }).messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Weather?' }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'Checking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
          { type: 'tool_use', id: 'toolu_2', name: 'time', input: {} },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: 'Sunny' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'Noon' }] },
          { type: 'text', text: 'Thanks' },
        ],
      },
    ]);
  });

  it('returns reasoning details as thinking blocks: fragments of one index joined, only what this wire can verify', () => {
    const messages: CoreMessage[] = [
      { role: 'user', content: 'Q' },
      {
        role: 'assistant',
        content: 'A',
        reasoning_details: [
          { type: 'reasoning.text', text: 'Let me ', index: 0, format: 'anthropic-claude-v1' },
          { type: 'reasoning.text', text: 'think', signature: 'sig-1', index: 0, format: 'anthropic-claude-v1' },
          { type: 'reasoning.encrypted', data: 'opaque', index: 1, format: 'anthropic-claude-v1' },
          { type: 'reasoning.text', text: 'unsigned', index: 2 },
          { type: 'reasoning.summary', summary: 'a summary', index: 3 },
          { type: 'reasoning.text', text: 'elsewhere', signature: 'sig-x', index: 4, format: 'openai-responses-v1' },
        ],
      },
    ];
    expect((bodyOf({ messages }).messages as unknown[])[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me think', signature: 'sig-1' },
        { type: 'redacted_thinking', data: 'opaque' },
        { type: 'text', text: 'A' },
      ],
    });
  });

  it('uses the middle-out conversation the planner chose for the attempt', () => {
    const request = coreRequest({ messages: [{ role: 'user', content: 'long' }] });
    const body = buildAnthropicRequest(request, attemptAt({}, { messages: [{ role: 'user', content: 'short' }] })).body;
    expect(body.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'short' }] }]);
  });
});

describe('Anthropic request: settings', () => {
  it('sends the planned ceiling under max_tokens, and without one all the endpoint can emit beside the prompt', () => {
    expect(bodyOf({}, {}, 300).max_tokens).toBe(300);
    expect(bodyOf({}, { max_completion_tokens: 2048 }).max_tokens).toBe(2048);
    expect(bodyOf({}, { context_length: 1000 }).max_tokens).toBe(990);
  });

  it('sends the ceiling under the name the endpoint declares', () => {
    const body = bodyOf({}, { max_tokens_parameter: 'max_completion_tokens' }, 300);
    expect(body.max_completion_tokens).toBe(300);
    expect(body).not.toHaveProperty('max_tokens');
  });

  it('maps tools with their schema, and a tool without parameters to an empty object schema', () => {
    const body = bodyOf({
      tools: [
        { type: 'function', function: { name: 'weather', description: 'Weather', parameters: { type: 'object', properties: { city: { type: 'string' } } }, strict: true } },
        { type: 'function', function: { name: 'now' } },
      ],
    });
    expect(body.tools).toEqual([
      { name: 'weather', description: 'Weather', input_schema: { type: 'object', properties: { city: { type: 'string' } } }, strict: true },
      { name: 'now', input_schema: { type: 'object', properties: {} } },
    ]);
  });

  it.each([
    ['auto', { type: 'auto' }],
    ['none', { type: 'none' }],
    ['required', { type: 'any' }],
    [{ type: 'function', function: { name: 'weather' } }, { type: 'tool', name: 'weather' }],
  ] as const)('tool_choice %j is sent as %j', (choice, wire) => {
    expect(bodyOf({ toolChoice: choice }).tool_choice).toEqual(wire);
  });

  const weather = [{ type: 'function' as const, function: { name: 'weather' } }];

  it('parallel_tool_calls false disables parallel tool use, with or without a tool_choice', () => {
    expect(bodyOf({ tools: weather, parameters: { parallel_tool_calls: false } }).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(bodyOf({ tools: weather, toolChoice: 'required', parameters: { parallel_tool_calls: false } }).tool_choice).toEqual({ type: 'any', disable_parallel_tool_use: true });
    expect(bodyOf({ tools: weather })).not.toHaveProperty('tool_choice');
  });

  it('one call per turn, asked by the messages or responses dialect (an advisory setting), is sent whatever the endpoint declares', () => {
    const asked = { tools: weather, softParameters: { parallel_tool_calls: false } };
    expect(bodyOf(asked).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(bodyOf({ ...asked, toolChoice: { type: 'function', function: { name: 'weather' } } }).tool_choice).toEqual({ type: 'tool', name: 'weather', disable_parallel_tool_use: true });
    expect(bodyOf(asked, { supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'parallel_tool_calls'] }).tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    expect(bodyOf(asked)).not.toHaveProperty('parallel_tool_calls');
    expect(bodyOf({ tools: weather, softParameters: { parallel_tool_calls: true } })).not.toHaveProperty('tool_choice');
  });

  it('an ask for one call per turn with no tools sends no tool_choice, which the wire refuses without tools', () => {
    expect(bodyOf({ parameters: { parallel_tool_calls: false } })).not.toHaveProperty('tool_choice');
    expect(bodyOf({ softParameters: { parallel_tool_calls: false } })).not.toHaveProperty('tool_choice');
  });

  it('sends temperature, top_p and stop as stop_sequences; settings with no counterpart are not sent', () => {
    const body = bodyOf({ parameters: { temperature: 0.3, top_p: 0.9, stop: 'END', seed: 7, frequency_penalty: 1, logit_bias: { 1: 2 }, logprobs: true } });
    expect(body).toMatchObject({ temperature: 0.3, top_p: 0.9, stop_sequences: ['END'] });
    for (const name of ['stop', 'seed', 'frequency_penalty', 'logit_bias', 'logprobs']) expect(body).not.toHaveProperty(name);
    expect(bodyOf({ parameters: { stop: ['a', 'b'] } }).stop_sequences).toEqual(['a', 'b']);
  });

  it('sends top_k only where declared, and never -1', () => {
    expect(bodyOf({ softParameters: { top_k: 5 } })).not.toHaveProperty('top_k');
    expect(bodyOf({ softParameters: { top_k: 5 } }, { supported_parameters: ['max_tokens', 'top_k'] }).top_k).toBe(5);
    expect(bodyOf({ softParameters: { top_k: -1 } }, { supported_parameters: ['max_tokens', 'top_k'] })).not.toHaveProperty('top_k');
  });

  it('sends a json_schema response format as output_config.format', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const body = bodyOf({ parameters: { response_format: { type: 'json_schema', json_schema: { name: 'x', schema } } } });
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(body).not.toHaveProperty('response_format');
  });

  it('sends a json_schema response format passed through by a dialect (responses, messages) as output_config.format', () => {
    const schema = { type: 'object', properties: { a: { type: 'string' } } };
    const body = bodyOf({ passthrough: { response_format: { type: 'json_schema', json_schema: { name: 'output', schema } } } });
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema } });
    expect(body).not.toHaveProperty('response_format');
  });

  it('sends user as metadata.user_id, stream without stream_options, and the provider options', () => {
    const request = coreRequest({ user: 'u-1', stream: true });
    const body = buildAnthropicRequest(request, attemptAt({}, { options: { service_tier: 'auto' } })).body;
    expect(body).toMatchObject({ metadata: { user_id: 'u-1' }, stream: true, service_tier: 'auto' });
    expect(body).not.toHaveProperty('stream_options');
  });
});

describe('Anthropic request: thinking (spec 01 rule 3)', () => {
  it('reasoning.max_tokens supplies the thinking budget', () => {
    expect(bodyOf({ reasoning: { maxTokens: 3000 } }, THINKING, 8000).thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
  });

  it.each([
    ['minimal', 1024],
    ['low', 2000],
    ['medium', 5000],
    ['high', 8000],
    ['xhigh', 9000],
    ['max', 9500],
  ] as const)('effort %s takes its share of the ceiling: %i of 10000', (effort, budget) => {
    expect(bodyOf({ reasoning: { effort } }, THINKING, 10000).thinking).toEqual({ type: 'enabled', budget_tokens: budget });
  });

  it('a derived budget is never below 1024', () => {
    expect(bodyOf({ reasoning: { effort: 'low' } }, THINKING, 2000).thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
  });

  it('enabled alone uses the endpoint default effort, else medium', () => {
    expect(bodyOf({ reasoning: { enabled: true } }, THINKING, 10000).thinking).toEqual({ type: 'enabled', budget_tokens: 5000 });
    const declared = { ...THINKING, reasoning: { supported_efforts: ['high', 'low'], default_effort: 'low' } };
    expect(bodyOf({ reasoning: { enabled: true } }, declared, 10000).thinking).toEqual({ type: 'enabled', budget_tokens: 2000 });
  });

  it('effort none or enabled false turns thinking off; exclude alone sends nothing', () => {
    expect(bodyOf({ reasoning: { effort: 'none' } }, THINKING, 10000).thinking).toEqual({ type: 'disabled' });
    expect(bodyOf({ reasoning: { enabled: false } }, THINKING, 10000).thinking).toEqual({ type: 'disabled' });
    expect(bodyOf({ reasoning: { exclude: true } }, THINKING, 10000)).not.toHaveProperty('thinking');
  });

  it('nothing is sent to an endpoint that does not declare reasoning', () => {
    expect(bodyOf({ reasoning: { maxTokens: 3000 } }, {}, 8000)).not.toHaveProperty('thinking');
  });
});

describe('Anthropic request: path and headers', () => {
  afterEach(() => {
    delete process.env.ANTHROPIC_TEST_KEY;
  });

  it('posts to /messages with x-api-key, anthropic-version and the session header', () => {
    process.env.ANTHROPIC_TEST_KEY = 'sk-test';
    const attempt = attemptAt();
    const upstream = buildAnthropicRequest(coreRequest({ sessionId: 'conv-1' }), {
      ...attempt,
      endpoint: { ...attempt.endpoint, provider: { ...attempt.endpoint.provider, apiKeyEnv: 'ANTHROPIC_TEST_KEY' } },
    });
    expect(upstream.path).toBe('/messages');
    expect(upstream.headers).toEqual({
      'content-type': 'application/json',
      'anthropic-version': '2023-06-01',
      'x-api-key': 'sk-test',
      'x-session-id': 'conv-1',
    });
    expect(upstream.body.model).toBe('claude-x');
  });
});
