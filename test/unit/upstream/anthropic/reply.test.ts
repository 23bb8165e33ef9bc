import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../../../src/upstream/anthropic/adapter.js';
import { adapterFor } from '../../../../src/upstream/registry.js';

describe('Anthropic whole replies', () => {
  it('decode into the same events a stream gives: meta, blocks in order, finish, usage', () => {
    const events = anthropicAdapter.decodeReply({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-x',
      content: [
        { type: 'thinking', thinking: 'Hmm', signature: 'sig-1' },
        { type: 'text', text: 'Calling.' },
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'toolu_2', name: 'now', input: {} },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 7, output_tokens: 12, cache_read_input_tokens: 3, cache_creation_input_tokens: 0 },
    });
    expect(events).toEqual([
      { type: 'meta', upstreamId: 'msg_1', model: 'claude-x' },
      { type: 'reasoning.start', index: 0, kind: 'text' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: 'Hmm', format: 'anthropic-claude-v1', signature: 'sig-1' },
      { type: 'reasoning.end', index: 0 },
      { type: 'text.start', index: 1 },
      { type: 'text.delta', index: 1, text: 'Calling.' },
      { type: 'text.end', index: 1 },
      { type: 'tool.start', index: 2, toolIndex: 0, id: 'toolu_1', name: 'weather' },
      { type: 'tool.delta', index: 2, toolIndex: 0, args: '{"city":"Paris"}' },
      { type: 'tool.end', index: 2, toolIndex: 0 },
      { type: 'tool.start', index: 3, toolIndex: 1, id: 'toolu_2', name: 'now' },
      { type: 'tool.delta', index: 3, toolIndex: 1, args: '{}' },
      { type: 'tool.end', index: 3, toolIndex: 1 },
      { type: 'finish', reason: 'tool_calls', raw: 'tool_use' },
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 12, cachedTokens: 3 } },
    ]);
  });

  it('an error document in a 200 body is a failure, as is a body with no content', () => {
    const error = { type: 'error', error: { type: 'api_error', message: 'Internal' } };
    expect(anthropicAdapter.decodeReply(error)).toEqual([{
      type: 'error',
      failure: { kind: 'http', retryable: true, status: 500, providerCode: 'api_error', providerMessage: 'Internal', raw: JSON.stringify(error) },
    }]);
    expect(anthropicAdapter.decodeReply({ id: 'msg_1' })[0]).toMatchObject({ type: 'error', failure: { kind: 'protocol' } });
    expect(anthropicAdapter.decodeReply('nope')[0]).toMatchObject({ type: 'error', failure: { kind: 'protocol' } });
  });

  it('is the adapter registered for api: anthropic', () => {
    expect(adapterFor('anthropic')).toBe(anthropicAdapter);
  });
});

describe('Anthropic HTTP errors', () => {
  it('529 overloaded: status, message, the error type as provider code, the body as raw, retryable', () => {
    const body = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: 'req_1' });
    expect(anthropicAdapter.decodeError(529, body, { 'retry-after': '3' })).toEqual({
      kind: 'http', status: 529, retryable: true, providerMessage: 'Overloaded', providerCode: 'overloaded_error', raw: body, retryAfter: '3',
    });
  });

  it('a 400 keeps the provider message; a 413 is not retried elsewhere', () => {
    const body = JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
    expect(anthropicAdapter.decodeError(400, body, {})).toMatchObject({ status: 400, providerMessage: 'max_tokens: Field required', providerCode: 'invalid_request_error' });
    expect(anthropicAdapter.decodeError(413, JSON.stringify({ type: 'error', error: { type: 'request_too_large', message: 'big' } }), {}).retryable).toBe(false);
  });

  it('a body that is not the error document still yields a message and raw', () => {
    expect(anthropicAdapter.decodeError(502, '<html>Bad gateway</html>', {})).toEqual({
      kind: 'http', status: 502, retryable: true, providerMessage: '<html>Bad gateway</html>', raw: '<html>Bad gateway</html>',
    });
    expect(anthropicAdapter.decodeError(503, '', {}).providerMessage).toBe('HTTP 503');
  });
});
