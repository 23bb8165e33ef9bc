import { describe, expect, it } from 'vitest';
import { chatChunks, deltas } from './sse-events.js';
import type { SimReply } from './sim-session.js';
import { messageOf, useSimulator, userMessage } from './sim-session.js';

const sim = useSimulator();

type Detail = Record<string, unknown>;

function detailsOf(list: Array<Record<string, unknown>>): Detail[] {
  return list.flatMap((d) => (Array.isArray(d.reasoning_details) ? (d.reasoning_details as Detail[]) : []));
}

describe('reasoning=N, streamed', () => {
  it('sends N reasoning chunks, each with delta.reasoning and the same text as a reasoning.text detail, before the answer', async () => {
    const list = deltas(await sim.stream({ model: 'chat;reasoning=4;tokens=2', messages: userMessage('x') }));
    const reasoning = list.slice(1, 5);
    expect(reasoning).toHaveLength(4);
    for (const delta of reasoning) {
      const details = delta.reasoning_details as Detail[];
      expect(details).toHaveLength(1);
      expect(details[0]).toMatchObject({ type: 'reasoning.text', text: delta.reasoning, index: 0, format: 'unknown' });
      expect(delta).not.toHaveProperty('content');
    }
    expect(list.slice(5).map((d) => d.content)).toEqual(['Hello', ' from', undefined]);
  });

  it('signs only the last reasoning fragment, and the fragments rebuild the non-streamed detail', async () => {
    const request = { model: 'chat;reasoning=5', messages: userMessage('same question') };
    const details = detailsOf(deltas(await sim.stream(request)));
    expect(details.slice(0, -1).every((d) => !('signature' in d))).toBe(true);
    const signature = details.at(-1)?.signature;
    expect(signature).toMatch(/^sig-/);
    const whole = messageOf(await sim.json<SimReply>(request));
    expect(details.map((d) => d.text).join('')).toBe(whole.reasoning);
    expect(whole.reasoning_details).toEqual([
      { type: 'reasoning.text', text: whole.reasoning, signature, index: 0, format: 'unknown' },
    ]);
  });

  it('counts reasoning tokens in completion_tokens and completion_tokens_details of the usage chunk', async () => {
    const text = await sim.stream({ model: 'chat;reasoning=7;tokens=3', stream_options: { include_usage: true }, messages: userMessage('x') });
    const usage = chatChunks(text).at(-1)?.usage;
    expect(usage?.completion_tokens).toBe(10);
    expect(usage?.completion_tokens_details).toEqual({ reasoning_tokens: 7 });
  });

  it('reasoning before a tool call moves the call id and name from the opening chunk to the first argument fragment', async () => {
    const tools = [{ type: 'function', function: { name: 'get_weather' } }];
    const list = deltas(await sim.stream({ model: 'chat;reasoning=2;tools', tools, messages: userMessage('Paris') }));
    expect(list[0]).not.toHaveProperty('tool_calls');
    const calls = list.flatMap((d) => (Array.isArray(d.tool_calls) ? d.tool_calls as Detail[] : []));
    expect(calls[0]).toMatchObject({ index: 0, type: 'function', function: { name: 'get_weather' } });
    expect(calls[0]?.id).toMatch(/^call_sim\d+$/);
    expect(list.findIndex((d) => 'tool_calls' in d)).toBe(3);
    expect(JSON.parse(calls.map((c) => (c.function as { arguments: string }).arguments).join(''))).toEqual({ query: 'Paris' });
  });
});

describe('reasoning=N, non-streamed', () => {
  it('carries message.reasoning, one signed reasoning.text detail and reasoning_tokens in usage', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;reasoning=3;tokens=2', messages: userMessage('x') });
    const message = messageOf(reply);
    expect(message.reasoning).toBe('Let me think');
    expect(message.content).toBe('Hello from');
    expect(message.reasoning_details?.[0]?.signature).toMatch(/^sig-[0-9a-f]+$/);
    expect(reply.usage).toMatchObject({ completion_tokens: 5, completion_tokens_details: { reasoning_tokens: 3 } });
  });

  it('the signature is deterministic for the same reasoning', async () => {
    const request = { model: 'chat;reasoning=3', messages: userMessage('x') };
    const first = messageOf(await sim.json<SimReply>(request)).reasoning_details;
    const second = messageOf(await sim.json<SimReply>(request)).reasoning_details;
    expect(first).toEqual(second);
  });

  it('reasoning=0 reports reasoning_tokens 0 and shows no reasoning (never an empty details array)', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;reasoning=0', messages: userMessage('x') });
    expect(messageOf(reply)).not.toHaveProperty('reasoning_details');
    expect(reply.usage?.completion_tokens_details).toEqual({ reasoning_tokens: 0 });
  });

  it('without the reasoning key there is no reasoning member and no completion_tokens_details', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat', messages: userMessage('x') });
    expect(messageOf(reply)).not.toHaveProperty('reasoning');
    expect(messageOf(reply)).not.toHaveProperty('reasoning_details');
    expect(reply.usage).not.toHaveProperty('completion_tokens_details');
  });
});

describe('reasoning_effort none', () => {
  it('suppresses reasoning, its details and its usage count', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;reasoning=6', reasoning_effort: 'none', messages: userMessage('x') });
    expect(messageOf(reply)).not.toHaveProperty('reasoning');
    expect(reply.usage?.completion_tokens).toBe(12);
    expect(reply.usage).not.toHaveProperty('completion_tokens_details');
    const streamed = deltas(await sim.stream({ model: 'chat;reasoning=6', reasoning_effort: 'none', messages: userMessage('x') }));
    expect(streamed.some((d) => 'reasoning' in d || 'reasoning_details' in d)).toBe(false);
  });

  it('reasoning_on_none models reason anyway', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;reasoning=6;reasoning_on_none', reasoning_effort: 'none', messages: userMessage('x') });
    expect(messageOf(reply).reasoning).toBeTruthy();
    expect(reply.usage?.completion_tokens_details).toEqual({ reasoning_tokens: 6 });
  });

  it('other efforts leave reasoning on', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;reasoning=2', reasoning_effort: 'low', messages: userMessage('x') });
    expect(messageOf(reply).reasoning).toBe('Let me');
  });
});

describe('encrypted', () => {
  it('adds one reasoning.encrypted detail at index 1 after the text detail, non-streamed', async () => {
    const details = messageOf(await sim.json<SimReply>({ model: 'chat;reasoning=2;encrypted', messages: userMessage('x') })).reasoning_details;
    expect(details).toHaveLength(2);
    expect(details?.[0]?.type).toBe('reasoning.text');
    expect(details?.[1]).toEqual({ type: 'reasoning.encrypted', data: expect.stringMatching(/^[A-Za-z0-9+/]+=*$/), index: 1 });
  });

  it('streams the encrypted detail in its own chunk after the last text fragment, with the same data', async () => {
    const request = { model: 'chat;reasoning=2;encrypted', messages: userMessage('x') };
    const details = detailsOf(deltas(await sim.stream(request)));
    expect(details.map((d) => d.type)).toEqual(['reasoning.text', 'reasoning.text', 'reasoning.encrypted']);
    const whole = messageOf(await sim.json<SimReply>(request)).reasoning_details;
    expect(details[2]).toEqual(whole?.[1]);
  });

  it('without reasoning it adds nothing', async () => {
    expect(messageOf(await sim.json<SimReply>({ model: 'chat;encrypted', messages: userMessage('x') }))).not.toHaveProperty('reasoning_details');
  });
});
