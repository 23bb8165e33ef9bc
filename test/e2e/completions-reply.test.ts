import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const TEXT_PARAMETERS = ['max_tokens', 'temperature', 'top_p', 'stop', 'seed', 'top_k', 'echo', 'suffix', 'logprobs', 'frequency_penalty', 'presence_penalty'];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/base', endpoints: [{ provider: 'sim-a', upstream_model: 'base;tokens=4', text_completions: true, supported_parameters: TEXT_PARAMETERS }] },
      { id: 'acme/chat', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=3' }] },
      { id: 'acme/chat-echo', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=3', supported_parameters: [...TEXT_PARAMETERS] }] },
    ],
  });
});

afterAll(async () => harness.close());

function lastUpstream(): { path: string; body: Record<string, unknown>; headers: Record<string, string> } {
  const last = harness.sim.requests().at(-1);
  return { path: last?.path ?? '', body: last?.body as Record<string, unknown>, headers: last?.headers ?? {} };
}

function completions(body: Record<string, unknown>, headers?: Record<string, string>) {
  return send(harness, { path: '/completions', body: { model: 'acme/base', prompt: 'Once upon a time', ...body }, ...(headers ? { headers } : {}) });
}

describe('a text completion', () => {
  it('is a text_completion object with the answer text, its usage and exact cost', async () => {
    const { data: reply, response } = await harness.client.completions.create({ model: 'acme/base', prompt: 'Once upon a time' }).withResponse();
    expect(reply.object).toBe('text_completion');
    expect(reply.id).toBe(response.headers.get('x-generation-id'));
    expect(reply.id).toMatch(/^gen-/);
    expect(reply.model).toBe('acme/base');
    expect((reply as unknown as { provider: string }).provider).toBe('Sim A');
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
    expect(reply.choices).toHaveLength(1);
    expect(reply.choices[0]).toMatchObject({ index: 0, text: 'Hello from the provider', finish_reason: 'stop', logprobs: null });
    const prompt = encode('Once upon a time').length;
    expect(reply.usage).toMatchObject({ prompt_tokens: prompt, completion_tokens: 4, total_tokens: prompt + 4 });
    const cost = parseUsd('0.000001') * BigInt(prompt) + parseUsd('0.000002') * 4n;
    expect((reply.usage as unknown as { cost: number }).cost).toBe(Number(formatUsd(cost)));
  });

  it('reaches an endpoint serving the text-completions wire as the prompt, written as is', async () => {
    await completions({ temperature: 0.2, suffix: ' The end.', user: 'user-9' });
    const { path, body } = lastUpstream();
    expect(path).toBe('/v1/completions');
    expect(body).toMatchObject({ model: 'base;tokens=4', prompt: 'Once upon a time', temperature: 0.2, suffix: ' The end.', user: 'user-9' });
    expect(body).not.toHaveProperty('messages');
  });

  it('reaches a chat-only endpoint as the one user turn', async () => {
    const reply = await completions({ model: 'acme/chat' });
    expect(reply.status).toBe(200);
    expect((reply.json as { choices: Array<{ text: string }> }).choices[0]?.text).toBe('Hello from the');
    const { path, body } = lastUpstream();
    expect(path).toBe('/v1/chat/completions');
    expect(body.messages).toEqual([{ role: 'user', content: 'Once upon a time' }]);
    expect(body).not.toHaveProperty('prompt');
  });

  it('a refusal is the completion text, ending with finish_reason content_filter', async () => {
    const reply = await harness.client.completions.create({ model: 'acme/chat', prompt: 'Tell me [[sim refusal]]' });
    expect(reply.choices[0]?.text).toBe("I can't help with that.");
    expect(reply.choices[0]?.finish_reason).toBe('content_filter');
  });

  it('max_tokens is the ceiling; a reply it cut ends with finish_reason length', async () => {
    const reply = await harness.client.completions.create({ model: 'acme/base', prompt: 'Once upon a time', max_tokens: 2 });
    expect(reply.choices[0]?.text).toBe('Hello from');
    expect(reply.choices[0]?.finish_reason).toBe('length');
    expect(lastUpstream().body.max_tokens).toBe(2);
  });

  it('echo puts the prompt before the answer', async () => {
    const reply = await harness.client.completions.create({ model: 'acme/base', prompt: 'Once upon a time', echo: true });
    expect(reply.choices[0]?.text).toBe('Once upon a timeHello from the provider');
    expect(lastUpstream().body.echo).toBe(true);
  });

  it('logprobs: N gives each answer token its figure and N alternatives, with text offsets', async () => {
    const reply = await harness.client.completions.create({ model: 'acme/base', prompt: 'Once upon a time', logprobs: 2 });
    const logprobs = reply.choices[0]?.logprobs;
    expect(logprobs?.tokens).toEqual(['Hello', ' from', ' the', ' provider']);
    expect(logprobs?.text_offset).toEqual([0, 5, 10, 14]);
    expect(logprobs?.token_logprobs?.every((figure) => figure < 0)).toBe(true);
    for (const top of logprobs?.top_logprobs ?? []) expect(Object.keys(top)).toHaveLength(2);
    expect(lastUpstream().body.logprobs).toBe(2);
  });

  it('echo, suffix and logprobs route only to endpoints serving the text-completions wire: 503 when none does', async () => {
    const before = harness.sim.requests().length;
    for (const member of [{ echo: true }, { suffix: 'x' }, { logprobs: 1 }]) {
      const reply = await completions({ model: 'acme/chat-echo', ...member });
      expect(reply.status).toBe(503);
      expect((reply.json as ErrorEnvelope).error.message).toMatch(/text-completions wire/);
    }
    expect(harness.sim.requests().length).toBe(before);
  });

  it('top_k is sent only where declared; X-Session-Id reaches the endpoint', async () => {
    await completions({ top_k: 5 }, { 'x-session-id': 'story-1' });
    expect(lastUpstream().body.top_k).toBe(5);
    expect(lastUpstream().headers['x-session-id']).toBe('story-1');
    await completions({ model: 'acme/chat', top_k: 5 });
    expect(lastUpstream().body).not.toHaveProperty('top_k');
  });
});

describe('members out of range give 400 naming the field', () => {
  it.each([
    ['prompt missing', { prompt: undefined }, 'prompt'],
    ['prompt not a string', { prompt: ['a', 'b'] }, 'prompt'],
    ['temperature 3', { temperature: 3 }, 'temperature'],
    ['top_p 0', { top_p: 0 }, 'top_p'],
    ['top_p above 1', { top_p: 1.1 }, 'top_p'],
    ['top_k -2', { top_k: -2 }, 'top_k'],
    ['frequency_penalty -3', { frequency_penalty: -3 }, 'frequency_penalty'],
    ['presence_penalty 2.5', { presence_penalty: 2.5 }, 'presence_penalty'],
    ['repetition_penalty 0', { repetition_penalty: 0 }, 'repetition_penalty'],
    ['repetition_penalty above 2', { repetition_penalty: 2.5 }, 'repetition_penalty'],
    ['max_tokens 0', { max_tokens: 0 }, 'max_tokens'],
    ['max_tokens above 1,048,576', { max_tokens: 1_048_577 }, 'max_tokens'],
    ['logprobs not an integer', { logprobs: true }, 'logprobs'],
    ['echo not a boolean', { echo: 'yes' }, 'echo'],
    ['seed not an integer', { seed: 1.5 }, 'seed'],
    ['models over 20', { models: Array.from({ length: 21 }, (_, i) => `acme/m${i}`) }, 'models'],
    ['route of another value', { route: 'random' }, 'route'],
    ['user over 256 characters', { user: 'u'.repeat(257) }, 'user'],
  ])('%s', async (_label, body, field) => {
    const reply = await completions(body);
    expect(reply.status).toBe(400);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.metadata.error_type).toBe('invalid_request');
    expect(error.message.startsWith(field)).toBe(true);
  });
});
