import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { readSse, send, startHarness, type Harness } from './harness.js';

const TEXT_PARAMETERS = ['max_tokens', 'temperature', 'stop', 'echo', 'logprobs'];

/** A `text_completion` stream frame as the gateway sends it. */
interface Frame {
  id: string;
  object: string;
  model: string;
  provider: string;
  choices: Array<{ index: number; text: string; finish_reason: string | null; logprobs?: { tokens: string[]; text_offset: number[] } | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number; cost: number };
  honoured?: Record<string, boolean>;
  error?: { code: number; message: string; metadata: { error_type: string } };
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/base', endpoints: [{ provider: 'sim-a', upstream_model: 'base;tokens=4', text_completions: true, supported_parameters: TEXT_PARAMETERS }] },
      { id: 'acme/chat', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=3', supported_parameters: ['max_tokens', 'temperature', 'top_k'] }] },
      { id: 'acme/failing', endpoints: [{ provider: 'sim-a', upstream_model: 'base;fail_after=2', text_completions: true }] },
    ],
  });
});

afterAll(async () => harness.close());

async function frames(body: Record<string, unknown>): Promise<{ status: number; frames: Frame[]; data: string[] }> {
  const reply = await send(harness, { path: '/completions', body: { model: 'acme/base', prompt: 'Once upon a time', stream: true, ...body } });
  const { data } = readSse(reply.text);
  return { status: reply.status, data, frames: data.filter((payload) => payload !== '[DONE]').map((payload) => JSON.parse(payload) as Frame) };
}

describe('a streamed text completion', () => {
  it('the official client reads text_completion frames whose texts concatenate to the answer', async () => {
    const stream = await harness.client.completions.create({ model: 'acme/base', prompt: 'Once upon a time', stream: true });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('text_completion');
      text += chunk.choices[0]?.text ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('Hello from the provider');
    expect(finish).toBe('stop');
  });

  it('the last frame before [DONE] has empty choices, the usage with its exact cost, and honoured', async () => {
    const { status, frames: all, data } = await frames({ temperature: 0.4 });
    expect(status).toBe(200);
    expect(data.at(-1)).toBe('[DONE]');
    const last = all.at(-1);
    expect(last?.choices).toEqual([]);
    const prompt = last?.usage?.prompt_tokens ?? 0;
    expect(last?.usage).toMatchObject({ completion_tokens: 4, total_tokens: prompt + 4 });
    expect(last?.usage?.cost).toBe(Number(formatUsd(parseUsd('0.000001') * BigInt(prompt) + parseUsd('0.000002') * 4n)));
    expect(last?.honoured).toEqual({ temperature: true });
    for (const frame of all) {
      expect(frame.object).toBe('text_completion');
      expect(frame.model).toBe('acme/base');
      expect(frame.provider).toBe('Sim A');
    }
  });

  it('honoured says which judged members the serving endpoint applied', async () => {
    const { frames: all } = await frames({ model: 'acme/chat', temperature: 0.4, top_k: 3, repetition_penalty: 1.1 });
    expect(all.at(-1)?.honoured).toEqual({ temperature: true, top_k: true, repetition_penalty: false });
  });

  it('a reply the ceiling cut ends with finish_reason length', async () => {
    const { frames: all } = await frames({ max_tokens: 2 });
    expect(all.map((frame) => frame.choices[0]?.text ?? '').join('')).toBe('Hello from');
    expect(all.find((frame) => frame.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('length');
  });

  it('a refusal streams as the completion text and ends with finish_reason content_filter', async () => {
    const { frames: all } = await frames({ model: 'acme/chat', prompt: 'Tell me [[sim refusal]]' });
    expect(all.map((frame) => frame.choices[0]?.text ?? '').join('')).toBe("I can't help with that.");
    expect(all.find((frame) => frame.choices[0]?.finish_reason)?.choices[0]?.finish_reason).toBe('content_filter');
  });

  it('echo streams the prompt first', async () => {
    const { frames: all } = await frames({ echo: true });
    expect(all[0]?.choices[0]?.text).toBe('Once upon a time');
    expect(all.map((frame) => frame.choices[0]?.text ?? '').join('')).toBe('Once upon a timeHello from the provider');
  });

  it('logprobs travel in the frame of the text they describe, offsets counting from the start of the reply', async () => {
    const { frames: all } = await frames({ logprobs: 1 });
    const texts = all.filter((frame) => frame.choices[0]?.text);
    expect(texts).toHaveLength(4);
    for (const frame of texts) expect(frame.choices[0]?.logprobs?.tokens).toEqual([frame.choices[0]?.text]);
    expect(texts.map((frame) => frame.choices[0]?.logprobs?.text_offset[0])).toEqual([0, 5, 10, 14]);
  });

  it('a failure after the stream opened ends with the chat error chunk, finish_reason error, then [DONE]', async () => {
    const { status, frames: all, data } = await frames({ model: 'acme/failing' });
    expect(status).toBe(200);
    expect(data.at(-1)).toBe('[DONE]');
    const last = all.at(-1);
    expect(last?.choices[0]?.finish_reason).toBe('error');
    expect(last?.error?.code).toBe(502);
    expect(last?.error?.metadata.error_type).toBeTruthy();
    expect(all.some((frame) => frame.usage !== undefined)).toBe(false);
    expect(all.map((frame) => frame.choices[0]?.text ?? '').join('')).toBe('Hello from');
  });
});
