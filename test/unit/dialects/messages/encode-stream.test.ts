import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../../src/core/events.js';
import { GatewayError } from '../../../../src/core/errors.js';
import { MessagesStreamWriter } from '../../../../src/dialects/messages/encode-stream.js';

const META = { id: 'gen-abc', created: 1, model: 'acme/chat', provider: 'Sim A' };

/** Runs events through a writer and returns the named events it produced, in order. */
function run(events: CoreEvent[], end: (writer: MessagesStreamWriter) => string): Array<{ event: string; data: Record<string, unknown> }> {
  const writer = new MessagesStreamWriter(META);
  const text = writer.open() + events.map((event) => writer.write(event)).join('') + end(writer);
  return text.split('\n\n').filter(Boolean).map((frame) => {
    const [eventLine = '', dataLine = ''] = frame.split('\n');
    return { event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) as Record<string, unknown> };
  });
}

const finish = (writer: MessagesStreamWriter): string => writer.finish({ usage: { promptTokens: 5, completionTokens: 2 }, cost: 0 });

describe('messages stream writer', () => {
  it('opaque reasoning is one whole redacted_thinking block once it ends', () => {
    const events = run([
      { type: 'reasoning.start', index: 0, kind: 'encrypted' },
      { type: 'reasoning.delta', index: 0, kind: 'encrypted', text: 'ab' },
      { type: 'reasoning.delta', index: 0, kind: 'encrypted', text: 'cd' },
      { type: 'reasoning.end', index: 0 },
      { type: 'text.start', index: 1 },
      { type: 'text.delta', index: 1, text: 'Hi' },
      { type: 'text.end', index: 1 },
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ], finish);
    expect(events.slice(1, 3)).toEqual([
      { event: 'content_block_start', data: { type: 'content_block_start', index: 0, content_block: { type: 'redacted_thinking', data: 'abcd' } } },
      { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    ]);
    expect(events[3]?.data).toMatchObject({ index: 1, content_block: { type: 'text', text: '' } });
  });

  it('deltas of a block that never started open it; blocks still open are closed before message_delta', () => {
    const events = run([
      { type: 'text.delta', index: 4, text: 'Hi' },
      { type: 'finish', reason: 'length', raw: 'length' },
    ], finish);
    expect(events.map((event) => event.event)).toEqual([
      'message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(events[2]?.data).toEqual({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } });
    expect(events[4]?.data).toEqual({
      type: 'message_delta',
      delta: { stop_reason: 'max_tokens', stop_sequence: null },
      usage: { input_tokens: 5, output_tokens: 2, service: { unreported: [] } },
    });
  });

  it('message_start names both counts unreported; message_delta states which remain so, clearing the rest', () => {
    const reported = run([{ type: 'finish', reason: 'stop', raw: 'stop' }], finish);
    expect((reported[0]?.data.message as { usage: unknown }).usage).toEqual({ input_tokens: 0, output_tokens: 0, service: { unreported: ['input_tokens', 'output_tokens'] } });
    expect(reported.find((event) => event.event === 'message_delta')?.data.usage).toEqual({ input_tokens: 5, output_tokens: 2, service: { unreported: [] } });
    const halfReported = run([{ type: 'finish', reason: 'stop', raw: 'stop' }], (writer) => writer.finish({ usage: { completionTokens: 3 }, cost: 0 }));
    expect(halfReported.find((event) => event.event === 'message_delta')?.data.usage).toEqual({ input_tokens: 0, output_tokens: 3, service: { unreported: ['input_tokens'] } });
    const unmeasured = run([{ type: 'finish', reason: 'stop', raw: 'stop' }], (writer) => writer.finish({ usage: undefined, cost: 0 }));
    expect(unmeasured.find((event) => event.event === 'message_delta')?.data.usage).toEqual({ input_tokens: 0, output_tokens: 0, service: { unreported: ['input_tokens', 'output_tokens'] } });
  });

  it('a named stop sequence gives stop_reason stop_sequence and names it', () => {
    const events = run([
      { type: 'text.delta', index: 0, text: 'Hi' },
      { type: 'finish', reason: 'stop', raw: 'stop_sequence', stopSequence: 'END' },
    ], finish);
    expect(events.find((event) => event.event === 'message_delta')?.data.delta).toEqual({ stop_reason: 'stop_sequence', stop_sequence: 'END' });
  });

  it('tool calls stream as tool_use blocks with input_json_delta and end with tool_use', () => {
    const events = run([
      { type: 'tool.start', index: 0, toolIndex: 0, id: 'call_1', name: 'f' },
      { type: 'tool.delta', index: 0, toolIndex: 0, args: '{"a":' },
      { type: 'tool.delta', index: 0, toolIndex: 0, args: '1}' },
      { type: 'tool.end', index: 0, toolIndex: 0 },
      { type: 'finish', reason: 'tool_calls', raw: 'tool_calls' },
    ], finish);
    expect(events[1]?.data).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'call_1', name: 'f', input: {} } });
    expect(events[2]?.data.delta).toEqual({ type: 'input_json_delta', partial_json: '{"a":' });
    expect(events.find((event) => event.event === 'message_delta')?.data.delta).toEqual({ stop_reason: 'tool_use', stop_sequence: null });
  });

  it('a restart after the stream opened is an overloaded_error event', () => {
    const restart = new GatewayError('restarting', 'The service is restarting; retry in 5 seconds');
    const events = run([{ type: 'text.delta', index: 0, text: 'Hi' }], (writer) => writer.fail(restart));
    const last = events.at(-1);
    expect(last?.event).toBe('error');
    expect(last?.data).toEqual({
      type: 'error',
      error: { type: 'overloaded_error', message: 'The service is restarting; retry in 5 seconds', code: 503, metadata: { error_type: 'provider_overloaded' } },
    });
  });

  it('honoured renames core members to the request members', () => {
    const events = run([{ type: 'finish', reason: 'stop', raw: 'stop' }], (writer) => writer.finish({
      usage: undefined,
      cost: 0,
      honoured: { stop: true, parallel_tool_calls: false, temperature: true },
    }));
    const delta = events.find((event) => event.event === 'message_delta')?.data;
    expect(delta?.honoured).toEqual({ stop_sequences: true, disable_parallel_tool_use: false, temperature: true });
    expect(delta?.usage).toEqual({ input_tokens: 0, output_tokens: 0, service: { unreported: ['input_tokens', 'output_tokens'] } });
  });

  it('one unreported count is named alone', () => {
    const events = run([{ type: 'finish', reason: 'stop', raw: 'stop' }], (writer) => writer.finish({ usage: { completionTokens: 3 }, cost: 0 }));
    expect(events.find((event) => event.event === 'message_delta')?.data.usage).toEqual({
      input_tokens: 0,
      output_tokens: 3,
      service: { unreported: ['input_tokens'] },
    });
  });
});
