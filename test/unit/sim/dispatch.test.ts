import { describe, expect, it } from 'vitest';
import { chatChunks, isJson, sseEvents } from './sse-events.js';
import type { SseEvent } from './sse-events.js';
import type { SimReply } from './sim-session.js';
import { messageOf, useSimulator, userMessage } from './sim-session.js';

const sim = useSimulator();

const tools = [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object' } } }];

interface Dispatch {
  choice_index: number;
  tool_call: { index: number; id: string; type: string; function: { name: string; arguments: string } };
}

function streamed(keys: string, extra: Record<string, unknown> = {}): Promise<string> {
  return sim.stream({ model: `chat;tools;${keys}`, tools, messages: userMessage('Weather in Paris today'), ...extra });
}

function dispatches(events: SseEvent[]): SseEvent[] {
  return events.filter((e) => e.event === 'tool_call_dispatch');
}

/** Position of each kind of event: argument fragments, dispatches, the finish chunk. */
function positions(events: SseEvent[]): { lastFragment: number; dispatch: number[]; finish: number } {
  const isChunkWith = (e: SseEvent, test: (c: Record<string, unknown>) => boolean): boolean =>
    e.event === 'message' && isJson(e.data) && test(JSON.parse(e.data) as Record<string, unknown>);
  const choice = (c: Record<string, unknown>): Record<string, unknown> =>
    (Array.isArray(c.choices) ? (c.choices[0] as Record<string, unknown> | undefined) : undefined) ?? {};
  const hasFragment = (c: Record<string, unknown>): boolean => {
    const delta = choice(c).delta;
    return typeof delta === 'object' && delta !== null && 'tool_calls' in delta;
  };
  const fragments = events.map((e, i) => (isChunkWith(e, hasFragment) ? i : -1)).filter((i) => i >= 0);
  return {
    lastFragment: fragments.at(-1) ?? -1,
    dispatch: events.map((e, i) => (e.event === 'tool_call_dispatch' ? i : -1)).filter((i) => i >= 0),
    finish: events.findIndex((e) => isChunkWith(e, (c) => typeof choice(c).finish_reason === 'string')),
  };
}

describe('dispatch', () => {
  it('sends one tool_call_dispatch event after the last argument fragment and before the finish chunk', async () => {
    const events = sseEvents(await streamed('dispatch'));
    const at = positions(events);
    expect(at.dispatch).toEqual([at.lastFragment + 1]);
    expect(at.finish).toBe(at.lastFragment + 2);
  });

  it('the dispatch names the same call as the fragments, with the whole arguments', async () => {
    const text = await streamed('dispatch');
    const calls = chatChunks(text).flatMap((c) => c.choices[0]?.delta.tool_calls ?? []);
    const dispatch = JSON.parse(dispatches(sseEvents(text))[0]?.data ?? '') as Dispatch;
    expect(dispatch).toEqual({
      choice_index: 0,
      tool_call: {
        index: 0, id: calls[0]?.id, type: 'function',
        function: { name: 'get_weather', arguments: calls.map((c) => c.function?.arguments ?? '').join('') },
      },
    });
  });

  it('dispatch_twice sends the same dispatch twice', async () => {
    const found = dispatches(sseEvents(await streamed('dispatch_twice')));
    expect(found).toHaveLength(2);
    expect(found[0]?.data).toBe(found[1]?.data);
  });

  it('dispatch_malformed first sends a dispatch whose data is not JSON, then the good one', async () => {
    const found = dispatches(sseEvents(await streamed('dispatch_malformed')));
    expect(found.map((e) => isJson(e.data))).toEqual([false, true]);
  });

  it('dispatch_big first sends a dispatch of the same call whose arguments exceed 64 KiB, then the good one', async () => {
    const found = dispatches(sseEvents(await streamed('dispatch_big'))).map((e) => JSON.parse(e.data) as Dispatch);
    expect(found).toHaveLength(2);
    expect(found[0]?.tool_call.function.arguments.length).toBeGreaterThan(64 * 1024);
    expect(found[0]?.tool_call.id).toBe(found[1]?.tool_call.id);
    expect(found[1]?.tool_call.function.arguments).toBe('{"query":"Weather in Paris"}');
  });

  it('fail_after_dispatch ends with an in-band error after the dispatch: no finish chunk, no [DONE]', async () => {
    const events = sseEvents(await streamed('fail_after_dispatch'));
    const at = positions(events);
    expect(at.dispatch).toEqual([at.lastFragment + 1]);
    expect(at.finish).toBe(-1);
    expect(JSON.parse(events.at(-1)?.data ?? '')).toHaveProperty('error');
    expect(events.some((e) => e.data === '[DONE]')).toBe(false);
  });

  it('keeps its place when the stream is paced', async () => {
    const events = sseEvents(await streamed('dispatch;tps=500'));
    const at = positions(events);
    expect(at.dispatch).toEqual([at.lastFragment + 1]);
    expect(at.finish).toBe(at.lastFragment + 2);
  });

  it('sends nothing for text answers or non-streamed replies', async () => {
    const text = await sim.stream({ model: 'chat;dispatch;fail_after_dispatch', messages: userMessage('x') });
    expect(dispatches(sseEvents(text))).toEqual([]);
    expect(text).toContain('[DONE]');
    const reply = await sim.json<SimReply>({ model: 'chat;tools;dispatch', tools, messages: userMessage('x') });
    expect(messageOf(reply).tool_calls).toHaveLength(1);
  });
});
