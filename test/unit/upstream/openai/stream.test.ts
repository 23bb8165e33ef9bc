import { afterEach, describe, expect, it, vi } from 'vitest';
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

  /** Each tool call's events in order, as `start` / the args fragments / `end`, and the block sequence overall. */
  function toolBlocks(events: CoreEvent[]): { order: string[]; args: Record<string, string> } {
    const order: string[] = [];
    const args: Record<string, string> = {};
    const open = new Set<number>();
    for (const event of events) {
      if (event.type === 'tool.start') {
        expect(open.size, 'a tool block starts while another is open').toBe(0);
        open.add(event.index);
        order.push(`start ${event.name}@${event.index}`);
        args[event.name] = '';
      } else if (event.type === 'tool.delta') {
        expect(open.has(event.index), 'an argument fragment falls outside its open block').toBe(true);
        const start = events.find((candidate) => candidate.type === 'tool.start' && candidate.index === event.index);
        if (start?.type === 'tool.start') args[start.name] += event.args;
      } else if (event.type === 'tool.end') {
        open.delete(event.index);
        order.push(`end @${event.index}`);
      }
    }
    return { order, args };
  }

  const header = (index: number, id: string, name: string) => ({ index, id, type: 'function', function: { name, arguments: '' } });
  const fragment = (index: number, args: string) => ({ index, function: { arguments: args } });

  it('keeps every argument of parallel calls whose headers all come before their arguments', () => {
    const events = decode([
      chunk({ role: 'assistant', tool_calls: [header(0, 'call_w', 'get_weather')] }),
      chunk({ tool_calls: [header(1, 'call_t', 'get_time')] }),
      chunk({ tool_calls: [fragment(0, '{"city":"Paris"}')] }),
      chunk({ tool_calls: [fragment(1, '{"zone":"Asia/Tokyo"}')] }),
      chunk({}, 'tool_calls'),
      '[DONE]',
    ]);
    const { order, args } = toolBlocks(events);
    expect(order).toEqual(['start get_weather@0', 'end @0', 'start get_time@1', 'end @1']);
    expect(args).toEqual({ get_weather: '{"city":"Paris"}', get_time: '{"zone":"Asia/Tokyo"}' });
    expect(events.findIndex((event) => event.type === 'tool.end')).toBeLessThan(events.findIndex((event) => event.type === 'finish'));
  });

  it('keeps every argument of parallel calls whose fragments alternate', () => {
    const events = decode([
      chunk({ tool_calls: [header(0, 'call_w', 'get_weather'), header(1, 'call_t', 'get_time')] }),
      chunk({ tool_calls: [fragment(0, '{"city":')] }),
      chunk({ tool_calls: [fragment(1, '{"zone":')] }),
      chunk({ tool_calls: [fragment(0, '"Paris"}')] }),
      chunk({ tool_calls: [fragment(1, '"Asia/Tokyo"}')] }),
      chunk({ tool_calls: [header(2, 'call_x', 'get_rate'), fragment(2, '{"pair":"EURJPY"}')] }),
      chunk({}, 'tool_calls'),
    ]);
    const { order, args } = toolBlocks(events);
    // The first call streams live; the second waits until the third's header finds the first complete.
    expect(order).toEqual(['start get_weather@0', 'end @0', 'start get_time@1', 'end @1', 'start get_rate@2', 'end @2']);
    expect(args).toEqual({ get_weather: '{"city":"Paris"}', get_time: '{"zone":"Asia/Tokyo"}', get_rate: '{"pair":"EURJPY"}' });
  });

  it('streams sequential parallel calls live, each ending when the next one starts', () => {
    const decoder = new OpenAiStreamDecoder();
    const frame = (delta: Record<string, unknown>) => decoder.frame(JSON.stringify(chunk(delta)));
    frame({ tool_calls: [header(0, 'call_w', 'get_weather')] });
    frame({ tool_calls: [fragment(0, '{"city":"Paris"}')] });
    const second = frame({ tool_calls: [header(1, 'call_t', 'get_time')] });
    expect(second.map((event) => event.type)).toEqual(['tool.end', 'tool.start']);
    expect(frame({ tool_calls: [fragment(1, '{"zone":"UTC"}')] })).toEqual([{ type: 'tool.delta', index: 1, toolIndex: 1, args: '{"zone":"UTC"}' }]);
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

describe('OpenAI-compatible stream decoder: text frames read without parsing them', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  /** A frame as a provider writes it: the same members around every piece, in its own order. */
  const wire = (choice: Record<string, unknown>, extra: Record<string, unknown> = {}, created = 1700000000) =>
    JSON.stringify({ id: 'chatcmpl-9', object: 'chat.completion.chunk', created, model: 'gpt-4o-mini', system_fingerprint: 'fp_1', choices: [choice], ...extra });
  const text = (content: string, created?: number) => wire({ index: 0, delta: { content }, logprobs: null, finish_reason: null }, {}, created);

  /** Every frame of `frames`, its `created` made unique so that no two share their bytes: each one parsed. */
  function parsedOneByOne(frames: string[]): CoreEvent[] {
    return decode(frames.map((frame, index) => (frame.startsWith('{') ? frame.replace('"created":1700000000', `"created":${index}`) : frame)));
  }

  const stream = [
    wire({ index: 0, delta: { role: 'assistant', content: '' }, logprobs: null, finish_reason: null }),
    ...['The', ' quick', ' brown', ' fox', ' jumps', ' over', ' the', ' lazy', ' dog', '.'].map((piece) => text(piece)),
    text('a line\nbreak'),
    text('a "quoted" word'),
    text('back\\slash'),
    text('café ☕ 😀'),
    text(''),
    wire({ index: 0, delta: { content: 'with logprobs' }, logprobs: { content: [{ token: 'x', logprob: -0.5, top_logprobs: [] }] }, finish_reason: null }),
    wire({ index: 0, delta: { content: 'and reasoning', reasoning: 'hmm' }, logprobs: null, finish_reason: null }),
    wire({ index: 1, delta: { content: 'second choice' }, logprobs: null, finish_reason: null }),
    wire({ index: 0, delta: { content: 'with usage' }, logprobs: null, finish_reason: null }, { usage: { prompt_tokens: 3, completion_tokens: 1 } }),
    text(' again'),
    wire({ index: 0, delta: { content: 'last' }, logprobs: null, finish_reason: 'stop' }),
    wire({ index: 0, delta: { content: 'after the finish' }, logprobs: null, finish_reason: null }),
    JSON.stringify({ id: 'chatcmpl-9', choices: [], usage: { prompt_tokens: 5, completion_tokens: 20, total_tokens: 25 } }),
    '[DONE]',
  ];

  it('gives the events every frame parsed on its own gives, parsing the plain text frames no more', () => {
    const expected = parsedOneByOne(stream);
    const parse = vi.spyOn(JSON, 'parse');
    const events = decode(stream);
    expect(events).toEqual(expected);
    expect(events.filter((event) => event.type === 'text.delta').map((event) => event.type === 'text.delta' && event.text)).toContain(' lazy');
    // the role frame, the first text (learnt, then checked once more), the frames that are not plain text, the usage frame
    expect(parse.mock.calls.length).toBeLessThanOrEqual(stream.length - 9);
  });

  it('refuses a frame shaped like a learnt one but not JSON (a raw control character), as parsing it does', () => {
    const frames = [text('Hel'), text('lo'), text('bad\u0001byte').replace('\\u0001', '\u0001')];
    expect(frames[2]).toContain('\u0001');
    const events = decode(frames);
    const withoutRaw = (all: CoreEvent[]) => all.map((event) => (event.type === 'error' ? { ...event, failure: { ...event.failure, raw: undefined } } : event));
    expect(withoutRaw(events)).toEqual(withoutRaw(parsedOneByOne(frames)));
    expect(events.find((event) => event.type === 'error')).toMatchObject({ failure: { kind: 'protocol', providerMessage: 'Unreadable stream frame from the provider' } });
  });

  it('reads a frame as its parse would where the bytes around its text differ from the learnt ones, even at the same length', () => {
    const frames = [
      text('Hel'),
      text('lo'),
      // "refusal" for "content" before the text, "ab" for null after it: the same lengths as the learnt frame's
      wire({ index: 0, delta: { refusal: 'no' }, logprobs: null, finish_reason: null }),
      wire({ index: 0, delta: { content: 'end' }, logprobs: null, finish_reason: 'ab' }),
    ];
    expect(frames[2]?.length).toBe(text('no').length);
    expect(frames[3]?.length).toBe(text('end').length);
    const events = decode(frames);
    expect(events).toEqual(parsedOneByOne(frames));
    expect(events.map((event) => event.type)).toContain('refusal.delta');
    expect(events.map((event) => event.type)).toContain('finish');
  });

  it('stops learning when every frame differs from the last (a random padding member): three extra readings at most', () => {
    const frames = Array.from({ length: 20 }, (_, index) => wire({ index: 0, delta: { content: `piece ${index}` }, logprobs: null, finish_reason: null }, { obfuscation: 'x'.repeat(index) }));
    const expected = parsedOneByOne(frames);
    const parse = vi.spyOn(JSON, 'parse');
    expect(decode(frames)).toEqual(expected);
    expect(parse.mock.calls.length).toBe(frames.length + 3);
  });

  it('learns no frame whose text also stands elsewhere in it', () => {
    const frames = ['fp_1', 'fp_1', 'x'].map((piece) => text(piece));
    const parse = vi.spyOn(JSON, 'parse');
    expect(decode(frames).filter((event) => event.type === 'text.delta')).toHaveLength(3);
    expect(parse.mock.calls.length).toBe(3 + 1);
  });
});
