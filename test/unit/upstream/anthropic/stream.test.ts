import { describe, expect, it } from 'vitest';
import type { CoreEvent } from '../../../../src/core/events.js';
import { AnthropicStreamDecoder } from '../../../../src/upstream/anthropic/stream.js';
import { INCOMPLETE_STREAM_MESSAGE } from '../../../../src/upstream/openai/stream.js';

function decode(events: unknown[]): CoreEvent[] {
  const decoder = new AnthropicStreamDecoder();
  const out = events.flatMap((event) => decoder.frame(typeof event === 'string' ? event : JSON.stringify(event)));
  return [...out, ...decoder.end()];
}

const start = (usage: Record<string, unknown> = { input_tokens: 10, output_tokens: 1 }) => ({
  type: 'message_start',
  message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-x', content: [], stop_reason: null, stop_sequence: null, usage },
});
const blockStart = (index: number, block: Record<string, unknown>) => ({ type: 'content_block_start', index, content_block: block });
const delta = (index: number, value: Record<string, unknown>) => ({ type: 'content_block_delta', index, delta: value });
const blockStop = (index: number) => ({ type: 'content_block_stop', index });
const messageDelta = (stopReason: string, usage?: Record<string, unknown>) => ({
  type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, ...(usage ? { usage } : {}),
});
const STOP = { type: 'message_stop' };

describe('Anthropic stream decoder', () => {
  it('turns the event sequence into meta, one text block, finish and usage; ping is ignored', () => {
    const events = decode([
      start(),
      { type: 'ping' },
      blockStart(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'Hel' }),
      delta(0, { type: 'text_delta', text: 'lo' }),
      blockStop(0),
      messageDelta('end_turn', { output_tokens: 2 }),
      STOP,
    ]);
    expect(events).toEqual([
      { type: 'meta', upstreamId: 'msg_1', model: 'claude-x' },
      { type: 'text.start', index: 0 },
      { type: 'text.delta', index: 0, text: 'Hel' },
      { type: 'text.delta', index: 0, text: 'lo' },
      { type: 'text.end', index: 0 },
      { type: 'finish', reason: 'stop', raw: 'end_turn' },
      { type: 'usage', usage: { promptTokens: 10, completionTokens: 2 } },
    ]);
  });

  it('assembles partial tool JSON under one tool block with the call id and name', () => {
    const events = decode([
      start(),
      blockStart(0, { type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} }),
      delta(0, { type: 'input_json_delta', partial_json: '' }),
      delta(0, { type: 'input_json_delta', partial_json: '{"city": "Pa' }),
      delta(0, { type: 'input_json_delta', partial_json: 'ris"}' }),
      blockStop(0),
      messageDelta('tool_use', { output_tokens: 9 }),
      STOP,
    ]);
    expect(events.find((event) => event.type === 'tool.start')).toEqual({ type: 'tool.start', index: 0, toolIndex: 0, id: 'toolu_1', name: 'weather' });
    const args = events.flatMap((event) => (event.type === 'tool.delta' ? [event.args] : [])).join('');
    expect(JSON.parse(args)).toEqual({ city: 'Paris' });
    expect(events.find((event) => event.type === 'finish')).toEqual({ type: 'finish', reason: 'tool_calls', raw: 'tool_use' });
  });

  it('numbers tool calls in order and gives a call with no streamed input the arguments {}', () => {
    const events = decode([
      start(),
      blockStart(0, { type: 'text', text: '' }),
      delta(0, { type: 'text_delta', text: 'Checking' }),
      blockStop(0),
      blockStart(1, { type: 'tool_use', id: 'toolu_a', name: 'now', input: {} }),
      blockStop(1),
      blockStart(2, { type: 'tool_use', id: 'toolu_b', name: 'weather', input: {} }),
      delta(2, { type: 'input_json_delta', partial_json: '{}' }),
      blockStop(2),
      messageDelta('tool_use'),
    ]);
    const starts = events.filter((event) => event.type === 'tool.start');
    expect(starts.map((event) => [event.index, event.toolIndex, event.id])).toEqual([[1, 0, 'toolu_a'], [2, 1, 'toolu_b']]);
    expect(events.filter((event) => event.type === 'tool.delta')).toEqual([
      { type: 'tool.delta', index: 1, toolIndex: 0, args: '{}' },
      { type: 'tool.delta', index: 2, toolIndex: 1, args: '{}' },
    ]);
  });

  it('reads thinking deltas and the signature delta as one signed reasoning block, redacted thinking as encrypted', () => {
    const events = decode([
      start(),
      blockStart(0, { type: 'thinking', thinking: '' }),
      delta(0, { type: 'thinking_delta', thinking: 'Let me ' }),
      delta(0, { type: 'thinking_delta', thinking: 'think' }),
      delta(0, { type: 'signature_delta', signature: 'sig-1' }),
      blockStop(0),
      blockStart(1, { type: 'redacted_thinking', data: 'opaque' }),
      blockStop(1),
      blockStart(2, { type: 'text', text: '' }),
      delta(2, { type: 'text_delta', text: 'Answer' }),
      blockStop(2),
      messageDelta('end_turn', { output_tokens: 30, output_tokens_details: { thinking_tokens: 20 } }),
      STOP,
    ]);
    const format = 'anthropic-claude-v1';
    expect(events.filter((event) => event.type.startsWith('reasoning'))).toEqual([
      { type: 'reasoning.start', index: 0, kind: 'text' },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: 'Let me ', format },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: 'think', format },
      { type: 'reasoning.delta', index: 0, kind: 'text', text: '', format, signature: 'sig-1' },
      { type: 'reasoning.end', index: 0 },
      { type: 'reasoning.start', index: 1, kind: 'encrypted' },
      { type: 'reasoning.delta', index: 1, kind: 'encrypted', text: 'opaque', format },
      { type: 'reasoning.end', index: 1 },
    ]);
    expect(events.find((event) => event.type === 'text.start')).toEqual({ type: 'text.start', index: 2 });
    expect(events.at(-1)).toEqual({ type: 'usage', usage: { promptTokens: 10, completionTokens: 30, reasoningTokens: 20 } });
  });

  it('keeps consecutive text blocks apart', () => {
    const events = decode([
      start(),
      blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'a' }), blockStop(0),
      blockStart(1, { type: 'text', text: '' }), delta(1, { type: 'text_delta', text: 'b' }), blockStop(1),
      messageDelta('end_turn'),
    ]);
    expect(events.filter((event) => event.type === 'text.start').map((event) => event.index)).toEqual([0, 1]);
  });

  it('adds cache reads and writes to the prompt; later cumulative counts replace earlier ones', () => {
    const events = decode([
      start({ input_tokens: 4, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 1 }),
      messageDelta('max_tokens', { input_tokens: 4, cache_read_input_tokens: 100, cache_creation_input_tokens: 20, output_tokens: 50 }),
    ]);
    expect(events.at(-2)).toEqual({ type: 'finish', reason: 'length', raw: 'max_tokens' });
    expect(events.at(-1)).toEqual({ type: 'usage', usage: { promptTokens: 124, completionTokens: 50, cachedTokens: 100, cacheWriteTokens: 20 } });
  });

  it('sends no usage event when the stream reported none', () => {
    const events = decode([start({}), messageDelta('end_turn')].map((event) => {
      const copy = structuredClone(event) as { message?: { usage?: unknown } };
      if (copy.message) delete copy.message.usage;
      return copy;
    }));
    expect(events.some((event) => event.type === 'usage')).toBe(false);
    expect(events.at(-1)).toMatchObject({ type: 'finish' });
  });

  it('maps refusal to content_filter and keeps the raw stop reason', () => {
    expect(decode([start(), messageDelta('refusal')]).find((event) => event.type === 'finish')).toEqual({ type: 'finish', reason: 'content_filter', raw: 'refusal' });
  });

  it('an error event is terminal, with the status its type stands for and its data as raw', () => {
    const data = JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } });
    const events = decode([start(), blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'a' }), data]);
    expect(events.find((event) => event.type === 'error')).toEqual({
      type: 'error',
      failure: { kind: 'http', retryable: true, status: 529, providerCode: 'overloaded_error', providerMessage: 'Overloaded', raw: data },
    });
  });

  it('a frame that is not JSON is a protocol error carrying it', () => {
    expect(decode([start(), '{"type": "content_block_delta", "ind'])).toContainEqual({
      type: 'error',
      failure: { kind: 'protocol', retryable: true, providerMessage: 'Unreadable stream frame from the provider', raw: '{"type": "content_block_delta", "ind' },
    });
  });

  it('a stream closing before message_delta is incomplete', () => {
    const events = decode([start(), blockStart(0, { type: 'text', text: '' }), delta(0, { type: 'text_delta', text: 'partial' })]);
    expect(events.at(-1)).toEqual({ type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: INCOMPLETE_STREAM_MESSAGE } });
  });

  it('ignores event types it does not know', () => {
    const events = decode([start(), { type: 'content_block_start', index: 0, content_block: { type: 'server_tool_use', id: 's', name: 'web_search' } }, delta(0, { type: 'citations_delta' }), blockStop(0), { type: 'future_event' }, messageDelta('end_turn')]);
    expect(events.map((event) => event.type)).toEqual(['meta', 'finish', 'usage']);
  });
});
