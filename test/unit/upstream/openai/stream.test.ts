import { describe, expect, it } from 'vitest';
import { OpenAiStreamDecoder, INCOMPLETE_STREAM_MESSAGE } from '../../../../src/upstream/openai/stream.js';
import type { CoreEvent } from '../../../../src/core/events.js';

function decode(frames: unknown[]): CoreEvent[] {
  const decoder = new OpenAiStreamDecoder();
  const events = frames.flatMap((frame) => decoder.frame(typeof frame === 'string' ? frame : JSON.stringify(frame)));
  return [...events, ...decoder.end()];
}

const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

describe('OpenAI-compatible stream decoder', () => {
  it('turns text deltas into one text block, then finish and usage', () => {
    const events = decode([
      chunk({ role: 'assistant', content: 'Hel' }),
      chunk({ content: 'lo' }),
      chunk({}, 'stop'),
      { id: 'chatcmpl-1', choices: [], usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 } },
      '[DONE]',
    ]);
    expect(events.map((event) => event.type)).toEqual(['meta', 'text.start', 'text.delta', 'text.delta', 'text.end', 'finish', 'usage']);
    expect(events.at(-1)).toEqual({ type: 'usage', usage: { promptTokens: 5, completionTokens: 2 } });
  });

  it('assembles streamed tool-call fragments under one tool block', () => {
    const events = decode([
      chunk({ tool_calls: [{ index: 0, id: 'call_a', type: 'function', function: { name: 'lookup', arguments: '' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"x"}' } }] }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    const start = events.find((event) => event.type === 'tool.start');
    expect(start).toMatchObject({ id: 'call_a', name: 'lookup', toolIndex: 0 });
    const args = events.flatMap((event) => (event.type === 'tool.delta' ? [event.args] : [])).join('');
    expect(args).toBe('{"q":"x"}');
    expect(events.find((event) => event.type === 'finish')).toEqual({ type: 'finish', reason: 'tool_calls', raw: 'tool_calls' });
  });

  it('reports a stream closed without a finish reason as incomplete', () => {
    const events = decode([chunk({ content: 'partial' })]);
    expect(events.at(-1)).toMatchObject({ type: 'error', failure: { kind: 'incomplete', providerMessage: INCOMPLETE_STREAM_MESSAGE } });
  });

  it('reports an in-band provider error with its raw data', () => {
    const data = JSON.stringify({ error: { message: 'boom', code: 500 } });
    const events = decode([chunk({ content: 'a' }), data]);
    expect(events.find((event) => event.type === 'error')).toMatchObject({
      failure: { providerMessage: 'boom', status: 500, raw: data },
    });
  });

  it('leaves unreported usage counts undefined rather than zero', () => {
    const events = decode([chunk({ content: 'a' }, 'stop'), { choices: [], usage: { completion_tokens: 1 } }]);
    const usage = events.find((event) => event.type === 'usage');
    expect(usage).toEqual({ type: 'usage', usage: { completionTokens: 1 } });
  });
});
