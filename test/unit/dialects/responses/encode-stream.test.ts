import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../../src/core/events.js';
import { GatewayError, type ErrorCode } from '../../../../src/core/errors.js';
import type { CoreRequest } from '../../../../src/core/request.js';
import { ResponsesStreamWriter } from '../../../../src/dialects/responses/encode-stream.js';

const META = { id: 'gen-abc', created: 1, model: 'acme/chat', provider: 'Sim A' };

const REQUEST: CoreRequest = {
  models: ['acme/chat'],
  messages: [{ role: 'user', content: 'Hi' }],
  stream: true,
  parameters: {},
  softParameters: {},
  passthrough: {},
  attribution: {},
  toolOrigins: { weather__forecast: { namespace: 'weather', name: 'forecast' } },
};

interface Emitted {
  event: string;
  data: Record<string, unknown>;
}

function run(events: CoreEvent[], end: (writer: ResponsesStreamWriter) => string): Emitted[] {
  const writer = new ResponsesStreamWriter(META, REQUEST);
  const text = writer.open() + events.map((event) => writer.write(event)).join('') + end(writer);
  return text.split('\n\n').filter(Boolean).map((frame) => {
    const [eventLine = '', dataLine = ''] = frame.split('\n');
    return { event: eventLine.slice('event: '.length), data: JSON.parse(dataLine.slice('data: '.length)) as Record<string, unknown> };
  });
}

const complete = (writer: ResponsesStreamWriter): string => writer.finish({ usage: { promptTokens: 5, completionTokens: 2 }, cost: 0 });

describe('responses stream writer', () => {
  it('text then a namespaced call: the message is done before the call item is added; the call carries its namespace', () => {
    const events = run([
      { type: 'text.start', index: 0 },
      { type: 'text.delta', index: 0, text: 'Let me check' },
      { type: 'text.end', index: 0 },
      { type: 'tool.start', index: 1, toolIndex: 0, id: 'call_1', name: 'weather__forecast' },
      { type: 'tool.delta', index: 1, toolIndex: 0, args: '{}' },
      { type: 'tool.end', index: 1, toolIndex: 0 },
      { type: 'finish', reason: 'tool_calls', raw: 'tool_calls' },
    ], complete);
    expect(events.map((event) => event.event)).toEqual([
      'response.created', 'response.in_progress',
      'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'response.output_text.done',
      'response.content_part.done', 'response.output_item.done',
      'response.output_item.added', 'response.function_call_arguments.delta', 'response.function_call_arguments.done', 'response.output_item.done',
      'response.completed',
    ]);
    expect(events[8]?.data).toMatchObject({ output_index: 1, item: { type: 'function_call', call_id: 'call_1', name: 'forecast', namespace: 'weather' } });
    expect(events[10]?.data).toMatchObject({ name: 'forecast', arguments: '{}' });
    const response = events.at(-1)?.data.response as { output: Array<{ type: string; id: string }>; usage: unknown };
    expect(response.output.map((item) => item.type)).toEqual(['message', 'function_call']);
    expect(response.output.map((item) => item.id)).toEqual(['msg_abc_0', 'fc_abc_1']);
    expect(response.usage).toEqual({ input_tokens: 5, output_tokens: 2, total_tokens: 7 });
  });

  it('a refusal is its own part with refusal deltas; reasoning and log-probabilities are not shown', () => {
    const events = run([
      { type: 'reasoning.start', index: 0, kind: 'text' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: 'hmm' },
      { type: 'reasoning.end', index: 0 },
      { type: 'text.start', index: 1 },
      { type: 'refusal.delta', index: 1, text: 'I cannot' },
      { type: 'text.end', index: 1 },
      { type: 'logprobs', index: 0, tokens: [] },
      { type: 'finish', reason: 'stop', raw: 'stop' },
    ], complete);
    const names = events.map((event) => event.event);
    expect(names).toContain('response.refusal.delta');
    expect(names.filter((name) => name.includes('reasoning'))).toEqual([]);
    const done = events.find((event) => event.event === 'response.refusal.done');
    expect(done?.data.refusal).toBe('I cannot');
    expect(events.find((event) => event.event === 'response.content_part.done')?.data.part).toEqual({ type: 'refusal', refusal: 'I cannot' });
  });

  it('sequence numbers count every event from 0; usage nothing measured is named', () => {
    const events = run([{ type: 'text.delta', index: 0, text: 'Hi' }, { type: 'finish', reason: 'stop', raw: null }], (writer) => writer.finish({ usage: undefined, cost: 0 }));
    expect(events.map((event) => event.data.sequence_number)).toEqual(events.map((_, index) => index));
    expect((events.at(-1)?.data.response as { usage: unknown }).usage).toEqual({
      input_tokens: 0, output_tokens: 0, total_tokens: 0, service: { unreported: ['input_tokens', 'output_tokens', 'total_tokens'] },
    });
  });

  it('a failure claims nothing cut by it finished: no done event for the open part or item, which response.failed shows in progress', () => {
    const events = run([{ type: 'text.start', index: 0 }, { type: 'text.delta', index: 0, text: 'The weather in' }], (writer) => writer.fail(new GatewayError('provider_failed', 'Sim A failed')));
    expect(events.map((event) => event.event)).toEqual([
      'response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added', 'response.output_text.delta', 'error', 'response.failed',
    ]);
    expect((events.at(-1)?.data.response as { output: unknown }).output).toEqual([
      { type: 'message', id: 'msg_abc_0', status: 'in_progress', role: 'assistant', content: [{ type: 'output_text', text: 'The weather in', annotations: [] }] },
    ]);
  });

  it.each<[ErrorCode, string]>([
    ['provider_failed', 'server_error'],
    ['upstream_timeout', 'server_error'],
    ['provider_unavailable', 'server_error'],
    ['provider_rate_limited', 'rate_limit_exceeded'],
    ['context_length_exceeded', 'context_length_exceeded'],
    ['provider_rejected', 'invalid_prompt'],
  ])('a committed %s failure is response.failed with code %s, after event error with the same message', (code, expected) => {
    const error = new GatewayError(code, 'Sim A failed', { metadata: { provider_message: 'engine says no' } });
    const events = run([{ type: 'text.delta', index: 0, text: 'Hi' }], (writer) => writer.fail(error));
    expect(events.slice(-2).map((event) => event.event)).toEqual(['error', 'response.failed']);
    expect(events.at(-2)?.data).toMatchObject({ type: 'error', code: null, param: null, message: 'Sim A failed: engine says no' });
    expect((events.at(-1)?.data.response as { status: string; error: unknown }).error).toEqual({ code: expected, message: 'Sim A failed: engine says no' });
  });
});
