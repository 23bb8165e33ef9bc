import { describe, expect, it } from 'vitest';
import { collectReply } from '../../../../src/core/collect.js';
import type { CoreEvent } from '../../../../src/core/events.js';
import { encodeMessagesReply } from '../../../../src/dialects/messages/encode-reply.js';
import Fastify from 'fastify';
import { MessagesRequestSchema, type MessagesRequestBody } from '../../../../src/dialects/messages/schema.js';
import { decodeMessagesRequest } from '../../../../src/dialects/messages/decode.js';
import { buildAnthropicRequest } from '../../../../src/upstream/anthropic/request.js';
import { attemptAt } from '../../upstream/anthropic/fixture.js';

const META = { id: 'gen-abc', created: 1, model: 'acme/chat', provider: 'Sim A' };

function encode(events: CoreEvent[], usage = { promptTokens: 7, completionTokens: 3 }): Record<string, unknown> {
  return encodeMessagesReply(collectReply(events), META, { usage, cost: 0 });
}

describe('messages reply encoder', () => {
  it('blocks come in answer order: thinking, text, picture, tool call', () => {
    const reply = encode([
      { type: 'reasoning.start', index: 0, kind: 'text' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: 'Hmm', signature: 's1' },
      { type: 'reasoning.end', index: 0 },
      { type: 'text.start', index: 1 },
      { type: 'text.delta', index: 1, text: 'Here' },
      { type: 'text.end', index: 1 },
      { type: 'image', index: 2, url: 'data:image/png;base64,AAAA' },
      { type: 'tool.start', index: 3, toolIndex: 0, id: 'call_1', name: 'f' },
      { type: 'tool.delta', index: 3, toolIndex: 0, args: '{"x":1}' },
      { type: 'tool.end', index: 3, toolIndex: 0 },
      { type: 'finish', reason: 'tool_calls', raw: 'tool_calls' },
    ]);
    expect(reply).toEqual({
      id: 'msg_abc',
      type: 'message',
      role: 'assistant',
      model: 'acme/chat',
      content: [
        { type: 'thinking', thinking: 'Hmm', signature: 's1' },
        { type: 'text', text: 'Here' },
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        { type: 'tool_use', id: 'call_1', name: 'f', input: { x: 1 } },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 7, output_tokens: 3 },
    });
  });

  it('a reasoning summary is a thinking block with an empty signature, which a later turn may send back', async () => {
    const reply = encode([
      { type: 'reasoning.start', index: 0, kind: 'text' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: 'Weighing it.', signature: 'sig-1', format: 'anthropic-claude-v1' },
      { type: 'reasoning.end', index: 0 },
      { type: 'reasoning.start', index: 1, kind: 'summary' },
      { type: 'reasoning.delta', index: 1, kind: 'summary', text: 'Looked up the forecast.', format: 'openai-responses-v1' },
      { type: 'reasoning.end', index: 1 },
      { type: 'text.start', index: 2 },
      { type: 'text.delta', index: 2, text: 'Mild.' },
      { type: 'text.end', index: 2 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ]);
    expect(reply.content).toEqual([
      { type: 'thinking', thinking: 'Weighing it.', signature: 'sig-1' },
      { type: 'thinking', thinking: 'Looked up the forecast.', signature: '' },
      { type: 'text', text: 'Mild.' },
    ]);

    // The next turn carries the reply back: the route's schema takes it (validated as the app validates).
    const body = {
      model: 'acme/claude',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Weather?' }, { role: 'assistant', content: reply.content }, { role: 'user', content: 'And tomorrow?' }],
    };
    const app = Fastify({ ajv: { customOptions: { discriminator: true } } });
    app.post('/', { schema: { body: MessagesRequestSchema } }, async () => ({}));
    const answer = await app.inject({ method: 'POST', url: '/', payload: body });
    await app.close();
    expect(answer.statusCode, answer.body).toBe(200);

    // The empty signature reads as none, and an Anthropic endpoint is sent only the signed thinking.
    const core = decodeMessagesRequest(body as MessagesRequestBody, {});
    const details = core.messages[1]?.reasoning_details ?? [];
    expect(details[1]).not.toHaveProperty('signature');
    const sent = buildAnthropicRequest(core, attemptAt()).body as { messages: Array<{ role: string; content: unknown }> };
    expect(sent.messages[1]?.content).toEqual([{ type: 'thinking', thinking: 'Weighing it.', signature: 'sig-1' }, { type: 'text', text: 'Mild.' }]);
  });

  it('tool arguments that are not a JSON object read as {}', () => {
    const reply = encode([
      { type: 'tool.start', index: 0, toolIndex: 0, id: 'call_1', name: 'f' },
      { type: 'tool.delta', index: 0, toolIndex: 0, args: '{"x":' },
      { type: 'finish', reason: 'tool_calls', raw: 'tool_calls' },
    ]);
    expect(reply.content).toEqual([{ type: 'tool_use', id: 'call_1', name: 'f', input: {} }]);
  });

  it('a named stop sequence is the verdict; the ceiling is max_tokens; a content filter is refusal', () => {
    expect(encode([{ type: 'finish', reason: 'stop', raw: 'stop_sequence', stopSequence: '###' }])).toMatchObject({ stop_reason: 'stop_sequence', stop_sequence: '###' });
    expect(encode([{ type: 'finish', reason: 'length', raw: 'length' }])).toMatchObject({ stop_reason: 'max_tokens' });
    expect(encode([{ type: 'finish', reason: 'content_filter', raw: 'content_filter' }])).toMatchObject({ stop_reason: 'refusal' });
  });

  it('a non-base64 data URL picture is re-encoded as base64', () => {
    const reply = encode([{ type: 'image', index: 0, url: 'data:image/svg+xml,%3Csvg%2F%3E' }]);
    expect(reply.content).toEqual([{ type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: Buffer.from('<svg/>').toString('base64') } }]);
  });
});
