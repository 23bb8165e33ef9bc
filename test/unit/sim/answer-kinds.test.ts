import { describe, expect, it } from 'vitest';
import { chatChunks, deltas } from './sse-events.js';
import type { SimReply } from './sim-session.js';
import { messageOf, useSimulator, userMessage } from './sim-session.js';

const sim = useSimulator();

interface ErrorReply {
  error: { message: string; type: string; param: string | null; code: string | null };
}

describe('prompt_tokens', () => {
  it('prompt_tokens=N reports N prompt tokens whatever the prompt held, whole and streamed', async () => {
    const counted = await sim.json<SimReply>({ model: 'chat;tokens=2', messages: userMessage('a short prompt') });
    expect(counted.usage?.prompt_tokens).toBeLessThan(900);
    const whole = await sim.json<SimReply>({ model: 'chat;tokens=2;prompt_tokens=900', messages: userMessage('a short prompt') });
    expect(whole.usage).toMatchObject({ prompt_tokens: 900, completion_tokens: 2, total_tokens: 902 });
    const text = await sim.stream({ model: 'chat;tokens=2;prompt_tokens=900', stream_options: { include_usage: true }, messages: userMessage('a short prompt') });
    expect(chatChunks(text).at(-1)?.usage).toMatchObject({ prompt_tokens: 900, completion_tokens: 2 });
  });
});

describe('cached and cache_write', () => {
  it('cached=N reports prompt_tokens_details.cached_tokens N', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;cached=2', messages: userMessage('a longer prompt than two tokens') });
    expect(reply.usage?.prompt_tokens_details).toEqual({ cached_tokens: 2 });
  });

  it('cached tokens are clamped to prompt_tokens', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;cached=5000', messages: userMessage('x') });
    expect(reply.usage?.prompt_tokens_details?.cached_tokens).toBe(reply.usage?.prompt_tokens);
  });

  it('cache_write=N adds cache_write_tokens beside cached_tokens, and alone when nothing was read', async () => {
    const both = await sim.json<SimReply>({ model: 'chat;cached=2;cache_write=3', messages: userMessage('a longer prompt than five tokens') });
    expect(both.usage?.prompt_tokens_details).toEqual({ cached_tokens: 2, cache_write_tokens: 3 });
    const alone = await sim.json<SimReply>({ model: 'chat;cache_write=1', messages: userMessage('x') });
    expect(alone.usage?.prompt_tokens_details).toEqual({ cache_write_tokens: 1 });
  });

  it('cache writes are clamped to the prompt tokens not already cached', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;cached=1;cache_write=5000', messages: userMessage('x') });
    const usage = reply.usage;
    expect(usage?.prompt_tokens_details?.cache_write_tokens).toBe((usage?.prompt_tokens ?? 0) - 1);
  });

  it('the streamed usage chunk carries the same details', async () => {
    const text = await sim.stream({ model: 'chat;cached=1;cache_write=1', stream_options: { include_usage: true }, messages: userMessage('hello there') });
    expect(chatChunks(text).at(-1)?.usage?.prompt_tokens_details).toEqual({ cached_tokens: 1, cache_write_tokens: 1 });
  });

  it('without the keys usage has no prompt_tokens_details', async () => {
    expect((await sim.json<SimReply>({ model: 'chat', messages: userMessage('x') })).usage).not.toHaveProperty('prompt_tokens_details');
  });
});

describe('refusal', () => {
  it('non-streamed: message.refusal holds the refusal and content is null', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;refusal', messages: userMessage('x') });
    expect(messageOf(reply).refusal).toBe("I can't help with that.");
    expect(messageOf(reply).content).toBeNull();
    expect(reply.choices[0]?.finish_reason).toBe('stop');
  });

  it('streamed: delta.refusal fragments that join into the refusal, and no content deltas', async () => {
    const list = deltas(await sim.stream({ model: 'chat;refusal', messages: userMessage('x') }));
    const fragments = list.map((d) => d.refusal).filter((r): r is string => typeof r === 'string');
    expect(fragments.length).toBeGreaterThan(1);
    expect(fragments.join('')).toBe("I can't help with that.");
    expect(list.some((d) => typeof d.content === 'string')).toBe(false);
  });

  it('a refusal wins over tools', async () => {
    const message = messageOf(await sim.json<SimReply>({ model: 'chat;refusal;tools', messages: userMessage('x') }));
    expect(message.tool_calls).toBeUndefined();
    expect(message.refusal).toBeTruthy();
  });
});

describe('native_finish=X', () => {
  it('sends X as finish_reason of a non-streamed reply', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;native_finish=end_turn', messages: userMessage('x') });
    expect(reply.choices[0]?.finish_reason).toBe('end_turn');
  });

  it('sends X as finish_reason of the finish chunk', async () => {
    const list = chatChunks(await sim.stream({ model: 'chat;native_finish=STOP_SEQUENCE', messages: userMessage('x') }));
    expect(list.map((c) => c.choices[0]?.finish_reason).filter(Boolean)).toEqual(['STOP_SEQUENCE']);
  });
});

describe('require_param=NAME', () => {
  it('answers 400 with an OpenAI error naming NAME when the body lacks it', async () => {
    const res = await sim.chat({ model: 'chat;require_param=seed', messages: userMessage('x') });
    expect(res.status).toBe(400);
    const body = (await res.json()) as ErrorReply;
    expect(body.error.param).toBe('seed');
    expect(body.error.type).toBe('invalid_request_error');
    expect(body.error.message).toContain('seed');
  });

  it('answers normally when the body has NAME, whatever its value', async () => {
    expect((await sim.chat({ model: 'chat;require_param=seed', seed: 0, messages: userMessage('x') })).status).toBe(200);
    expect((await sim.chat({ model: 'chat', messages: userMessage('x [[sim require_param=top_k]]'), top_k: null })).status).toBe(200);
  });
});
