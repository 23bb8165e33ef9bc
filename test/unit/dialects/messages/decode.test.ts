import { describe, expect, test } from 'vitest';
import type { GatewayError } from '../../../../src/core/errors.js';
import { decodeConversation } from '../../../../src/dialects/messages/conversation.js';
import { decodeMessagesRequest } from '../../../../src/dialects/messages/decode.js';
import type { MessagesMessage } from '../../../../src/dialects/messages/block-schema.js';
import type { MessagesRequestBody } from '../../../../src/dialects/messages/schema.js';

function decode(extra: Partial<MessagesRequestBody> = {}) {
  return decodeMessagesRequest({ model: 'acme/chat', max_tokens: 64, messages: [{ role: 'user', content: 'Hi' }], ...extra }, {});
}

function refusal(run: () => unknown): GatewayError {
  try {
    run();
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected a refusal');
}

describe('system turns inside messages', () => {
  test('a system turn stays at its place in the conversation, after the top-level system', () => {
    const messages: MessagesMessage[] = [
      { role: 'user', content: 'List the files' },
      { role: 'assistant', content: 'Here they are.' },
      { role: 'system', content: 'The user switched to plan mode.' },
      { role: 'user', content: 'Now plan' },
    ];
    expect(decodeConversation('You are a coding agent.', messages)).toEqual([
      { role: 'system', content: 'You are a coding agent.' },
      { role: 'user', content: 'List the files' },
      { role: 'assistant', content: 'Here they are.' },
      { role: 'system', content: 'The user switched to plan mode.' },
      { role: 'user', content: 'Now plan' },
    ]);
  });

  test('a system turn of text blocks is their text joined by newlines; an empty one adds nothing', () => {
    const messages: MessagesMessage[] = [
      { role: 'user', content: 'Hi' },
      { role: 'system', content: [{ type: 'text', text: 'Be brief.', cache_control: { type: 'ephemeral' } }, { type: 'text', text: 'Be kind.' }] },
      { role: 'system', content: [] },
    ];
    expect(decodeConversation(undefined, messages)).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'system', content: 'Be brief.\nBe kind.' },
    ]);
  });

  test('clear_at next_user_message hides a system turn once a later user turn exists', () => {
    const reminder: MessagesMessage = { role: 'system', content: 'Answer in French.', clear_at: 'next_user_message' };
    const pending = decodeConversation(undefined, [{ role: 'user', content: 'Hi' }, reminder]);
    expect(pending).toEqual([{ role: 'user', content: 'Hi' }, { role: 'system', content: 'Answer in French.' }]);
    const cleared = decodeConversation(undefined, [{ role: 'user', content: 'Hi' }, reminder, { role: 'assistant', content: 'Salut' }, { role: 'user', content: 'Bye' }]);
    expect(cleared.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
  });

  test('messages of system turns alone are refused naming messages', () => {
    const error = refusal(() => decodeConversation(undefined, [{ role: 'system', content: 'x' }]));
    expect(error.code).toBe('invalid_request');
    expect(error.metadata.field).toBe('messages');
  });
});

describe('members the Anthropic API names that the service does not apply', () => {
  test('thinking in any form and output_config.effort are accepted and reported unapplied', () => {
    expect(decode({ thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }).ignored).toEqual(['thinking', 'output_config.effort']);
    expect(decode({ thinking: { type: 'enabled', budget_tokens: 2048 } }).ignored).toEqual(['thinking']);
    const request = decode({ thinking: { type: 'adaptive' } });
    expect(request.reasoning).toBeUndefined();
    expect(request.parameters).toEqual({});
  });

  test('context_management and metadata change nothing the core carries', () => {
    const plain = decode();
    const edits = [{ type: 'clear_thinking_20251015', keep: 'all' }];
    const agent = decode({ context_management: { edits }, metadata: { user_id: 'user_1' } });
    expect(agent).toEqual(plain);
  });

  test('output_config.format json_schema asks for structured output like chat response_format json_schema', () => {
    const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'] };
    const request = decode({ output_config: { format: { type: 'json_schema', schema } } });
    expect(request.structuredOutputs).toBe(true);
    expect(request.passthrough.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema } });
    expect(request.ignored).toBeUndefined();
  });
});

describe('tools as agents declare them', () => {
  const schema = { type: 'object', properties: {} };

  test('custom tools, typed custom or null, with cache_control, defer_loading and eager_input_streaming are function tools; strict travels', () => {
    const request = decode({
      tools: [
        { name: 'Bash', description: 'Run a command', input_schema: schema, cache_control: { type: 'ephemeral' } },
        { type: 'custom', name: 'Read', input_schema: schema, defer_loading: true, eager_input_streaming: true, strict: true },
        { type: null, name: 'Edit', input_schema: schema, eager_input_streaming: null },
      ],
    });
    expect(request.tools).toEqual([
      { type: 'function', function: { name: 'Bash', description: 'Run a command', parameters: schema } },
      { type: 'function', function: { name: 'Read', parameters: schema, strict: true } },
      { type: 'function', function: { name: 'Edit', parameters: schema } },
    ]);
  });

  test('a hosted tool type is still refused naming its position', () => {
    const error = refusal(() => decode({ tools: [{ name: 'Bash', input_schema: schema }, { type: 'bash_20250124', name: 'bash' }] }));
    expect(error.metadata.field).toBe('tools[1].type');
  });
});
