import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { DEFAULT_PARAMETERS, send, startHarness, type Harness } from './harness.js';

/** Reply features over real HTTP: reasoning, refusal, media, finish reasons, token details and their prices. */
const PRICES = {
  prompt: '0.000001',
  completion: '0.000002',
  input_cache_read: '0.0000001',
  input_cache_write: '0.00000125',
  internal_reasoning: '0.000003',
  image_megapixel: '0.04',
};
const REASONING_PARAMETERS = [...DEFAULT_PARAMETERS, 'reasoning'];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', pricing: PRICES, output_modalities: ['text', 'image', 'audio'] }] },
      { id: 'acme/thinker', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;reasoning=5;encrypted', supported_parameters: REASONING_PARAMETERS, pricing: PRICES }] },
      { id: 'acme/voice', endpoints: [{ provider: 'sim-c', upstream_model: 'chat', output_modalities: ['text', 'audio'] }] },
    ],
  });
});

afterAll(async () => harness.close());

interface Delta {
  role?: string;
  content?: string;
  reasoning?: string;
  reasoning_details?: Array<Record<string, unknown>>;
  refusal?: string;
  images?: Array<{ type: string; image_url: { url: string }; index?: number }>;
  audio?: { id?: string; data?: string; transcript?: string; expires_at?: number };
}

interface Chunk {
  choices: Array<{ delta: Delta; finish_reason: string | null; native_finish_reason?: string | null }>;
  usage?: Record<string, unknown> & { cost: number };
  error?: { code: number; message: string };
}

interface SseFrame {
  event: string;
  data: string;
}

/** The raw event stream as frames with their event names (`message` when unnamed). */
function frames(text: string): SseFrame[] {
  return text.split(/\r?\n\r?\n/).flatMap((block) => {
    const lines = block.split(/\r?\n/).filter((line) => line !== '' && !line.startsWith(':'));
    if (lines.length === 0) return [];
    const event = lines.find((line) => line.startsWith('event:'))?.slice(6).trim() ?? 'message';
    const data = lines.filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\n');
    return [{ event, data }];
  });
}

async function whole(body: Record<string, unknown>): Promise<{ json: Record<string, unknown>; id: string }> {
  const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/chat', ...body } });
  expect(reply.status, reply.text).toBe(200);
  return { json: reply.json as Record<string, unknown>, id: reply.headers.get('x-generation-id') ?? '' };
}

async function streamed(body: Record<string, unknown>): Promise<{ chunks: Chunk[]; frames: SseFrame[]; id: string }> {
  const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/chat', stream: true, ...body } });
  expect(reply.status, reply.text).toBe(200);
  const all = frames(reply.text);
  const chunks = all.filter((frame) => frame.event === 'message' && frame.data !== '[DONE]').map((frame) => JSON.parse(frame.data) as Chunk);
  return { chunks, frames: all, id: reply.headers.get('x-generation-id') ?? '' };
}

function user(content: string): Array<{ role: string; content: string }> {
  return [{ role: 'user', content }];
}

function messageOf(json: Record<string, unknown>): Record<string, unknown> {
  return ((json.choices as Array<{ message: Record<string, unknown> }>)[0]?.message) ?? {};
}

async function generation(id: string): Promise<Record<string, unknown>> {
  const reply = await send(harness, { path: `/generation?id=${id}` });
  return (reply.json as { data: Record<string, unknown> }).data;
}

describe('reasoning and reasoning_details', () => {
  it('a whole reply carries the reasoning text and its details: the signed text entry, then the encrypted one', async () => {
    const { json } = await whole({ model: 'acme/thinker', reasoning: { effort: 'high' }, messages: user('Think [[sim tokens=2]]') });
    const message = messageOf(json);
    expect(message.reasoning).toBe('Let me think this through');
    const details = message.reasoning_details as Array<Record<string, unknown>>;
    expect(details.map((detail) => [detail.type, detail.index])).toEqual([['reasoning.text', 0], ['reasoning.encrypted', 1]]);
    expect(details[0]?.text).toBe('Let me think this through');
    expect(details[0]?.signature).toMatch(/^sig-/);
    expect(details[1]?.data).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(message.content).toBe('Hello from');
  });

  it('streamed fragments share an index; concatenating them and taking the signed one rebuilds the whole entry', async () => {
    const { json } = await whole({ model: 'acme/thinker', messages: user('Same question [[sim tokens=2]]') });
    const { chunks } = await streamed({ model: 'acme/thinker', messages: user('Same question [[sim tokens=2]]') });
    const fragments = chunks.flatMap((chunk) => chunk.choices[0]?.delta.reasoning_details ?? []);
    const textFragments = fragments.filter((fragment) => fragment.type === 'reasoning.text');
    expect(textFragments.length).toBeGreaterThan(1);
    expect(new Set(textFragments.map((fragment) => fragment.index))).toEqual(new Set([0]));
    const signed = textFragments.filter((fragment) => fragment.signature !== undefined);
    expect(signed).toHaveLength(1);
    const rebuilt = { type: 'reasoning.text', text: textFragments.map((fragment) => fragment.text).join(''), signature: signed[0]?.signature };
    const entry = (messageOf(json).reasoning_details as Array<Record<string, unknown>>)[0];
    expect(rebuilt).toEqual({ type: entry?.type, text: entry?.text, signature: entry?.signature });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.reasoning ?? '').join('')).toBe(entry?.text);
  });

  it('a reply without deliberation has neither reasoning nor reasoning_details, not even empty ones', async () => {
    const { json } = await whole({ messages: user('Plain [[sim tokens=2]]') });
    expect(messageOf(json)).not.toHaveProperty('reasoning');
    expect(messageOf(json)).not.toHaveProperty('reasoning_details');
    const { chunks } = await streamed({ messages: user('Plain [[sim tokens=2]]') });
    for (const chunk of chunks) expect(chunk.choices[0]?.delta ?? {}).not.toHaveProperty('reasoning_details');
  });

  it('reasoning.exclude hides the reasoning but still bills its tokens', async () => {
    const { json } = await whole({ model: 'acme/thinker', reasoning: { exclude: true }, messages: user('Hide it [[sim tokens=2]]') });
    expect(messageOf(json)).not.toHaveProperty('reasoning');
    expect(messageOf(json)).not.toHaveProperty('reasoning_details');
    expect(json.usage).toMatchObject({ completion_tokens_details: { reasoning_tokens: 5 } });
    const { chunks } = await streamed({ model: 'acme/thinker', reasoning: { exclude: true }, messages: user('Hide it [[sim tokens=2]]') });
    expect(chunks.some((chunk) => chunk.choices[0]?.delta.reasoning !== undefined)).toBe(false);
  });
});

describe('refusal, finish reasons and native_finish_reason', () => {
  it('a refusal arrives as refusal text, whole and in streamed fragments', async () => {
    const { json } = await whole({ messages: user('Do the bad thing [[sim refusal]]') });
    expect(messageOf(json).refusal).toBe("I can't help with that.");
    expect(messageOf(json).content).toBeNull();
    const { chunks } = await streamed({ messages: user('Do the bad thing [[sim refusal]]') });
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.refusal ?? '').join('')).toBe("I can't help with that.");
  });

  it('the provider reason is passed through as native_finish_reason beside the mapped finish_reason', async () => {
    const { json } = await whole({ messages: user('Hi [[sim tokens=2 native_finish=end_turn]]') });
    const choice = (json.choices as Array<Record<string, unknown>>)[0];
    expect(choice).toMatchObject({ finish_reason: 'stop', native_finish_reason: 'end_turn' });
    const { chunks } = await streamed({ messages: user('Hi [[sim tokens=2 native_finish=end_turn]]') });
    const last = chunks.find((chunk) => chunk.choices[0]?.finish_reason);
    expect(last?.choices[0]).toMatchObject({ finish_reason: 'stop', native_finish_reason: 'end_turn' });
  });

  it('a ceiling reached ends with length, natively length', async () => {
    const { json } = await whole({ max_tokens: 2, messages: user('Long answer [[sim tokens=9]]') });
    expect((json.choices as Array<Record<string, unknown>>)[0]).toMatchObject({ finish_reason: 'length', native_finish_reason: 'length' });
  });
});

describe('generated media', () => {
  it('a picture comes back as a data URL in message.images, billed per megapixel read from its bytes', async () => {
    const { json, id } = await whole({ modalities: ['image', 'text'], messages: user('Draw [[sim tokens=2 image=1000x500]]') });
    const images = messageOf(json).images as Array<{ type: string; image_url: { url: string } }>;
    expect(images).toHaveLength(1);
    expect(images[0]?.type).toBe('image_url');
    expect(images[0]?.image_url.url).toMatch(/^data:image\/png;base64,/);
    const record = await generation(id);
    const lines = record.cost_lines as Array<{ key: string; quantity: string; amount_usd: string | null }>;
    expect(lines.find((line) => line.key === 'image_megapixel')).toEqual({ key: 'image_megapixel', quantity: '0.5', amount_usd: '0.02' });
  });

  it('a picture the endpoint hosts is passed through by URL, unchanged and unmeasured', async () => {
    const { json } = await whole({ modalities: ['image', 'text'], messages: user('Draw [[sim tokens=2 image_url=https://cdn.example/p.png]]') });
    expect(messageOf(json).images).toEqual([{ type: 'image_url', image_url: { url: 'https://cdn.example/p.png' }, index: expect.any(Number) }]);
  });

  it('content is the empty string, never null, when the whole answer is a picture', async () => {
    const { json } = await whole({ modalities: ['image'], messages: user('Draw [[sim image=8x8 image_only]]') });
    expect(messageOf(json).content).toBe('');
  });

  it('a streamed picture arrives whole in one chunk', async () => {
    const { chunks } = await streamed({ modalities: ['image', 'text'], messages: user('Draw [[sim tokens=2 image=8x8]]') });
    const withImages = chunks.filter((chunk) => chunk.choices[0]?.delta.images !== undefined);
    expect(withImages).toHaveLength(1);
    expect(withImages[0]?.choices[0]?.delta.images?.[0]?.image_url.url).toMatch(/^data:image\/png;base64,/);
  });

  it('generated audio is message.audio {id, data, expires_at, transcript}; unpriced seconds are recorded and charge nothing', async () => {
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/voice', modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' }, messages: user('Say it [[sim tokens=3 audio=2]]') },
    });
    expect(reply.status, reply.text).toBe(200);
    const audio = messageOf(reply.json as Record<string, unknown>).audio as Record<string, unknown>;
    expect(Object.keys(audio).sort()).toEqual(['data', 'expires_at', 'id', 'transcript']);
    expect(Buffer.from(String(audio.data), 'base64').subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(audio.transcript).toBe('Hello from the');
    expect(messageOf(reply.json as Record<string, unknown>).content).toBeNull();
    const record = await generation(reply.headers.get('x-generation-id') ?? '');
    const lines = record.cost_lines as Array<{ key: string; quantity: string; amount_usd: string | null }>;
    expect(lines.find((line) => line.key === 'audio_second')).toEqual({ key: 'audio_second', quantity: '2.000000', amount_usd: null });
  });

  it('streamed audio arrives in fragments on delta.audio that concatenate to the whole', async () => {
    const body = { model: 'acme/voice', modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'wav' }, messages: user('Say it [[sim tokens=3 audio=1]]') };
    const { json } = await whole(body);
    const { chunks } = await streamed(body);
    const fragments = chunks.map((chunk) => chunk.choices[0]?.delta.audio).filter((audio) => audio !== undefined);
    expect(fragments.length).toBeGreaterThan(1);
    const wholeAudio = messageOf(json).audio as { data: string; transcript: string };
    expect(fragments.map((audio) => audio.data ?? '').join('')).toBe(wholeAudio.data);
    expect(fragments.map((audio) => audio.transcript ?? '').join('')).toBe(wholeAudio.transcript);
  });
});

describe('token details and their prices', () => {
  it('cached and cache-write tokens are reported and charged at input_cache_read and input_cache_write', async () => {
    const { json, id } = await whole({ messages: user('A prompt long enough to cache some of it [[sim tokens=4 cached=5 cache_write=3]]') });
    const usage = json.usage as { prompt_tokens: number; completion_tokens: number; prompt_tokens_details: Record<string, number>; cost: number };
    expect(usage.prompt_tokens_details).toEqual({ cached_tokens: 5, cache_write_tokens: 3 });
    const exact = parseUsd(PRICES.prompt) * BigInt(usage.prompt_tokens - 8) + parseUsd(PRICES.input_cache_read) * 5n +
      parseUsd(PRICES.input_cache_write) * 3n + parseUsd(PRICES.completion) * 4n;
    expect((await generation(id)).cost_usd).toBe(formatUsd(exact));
    expect(usage.cost).toBe(Number(formatUsd(exact)));
  });

  it('reasoning tokens are part of the completion and charged at internal_reasoning', async () => {
    const { json, id } = await whole({ model: 'acme/thinker', messages: user('Think [[sim tokens=2]]') });
    const usage = json.usage as { prompt_tokens: number; completion_tokens: number; completion_tokens_details: Record<string, number> };
    expect(usage.completion_tokens).toBe(7);
    expect(usage.completion_tokens_details).toEqual({ reasoning_tokens: 5 });
    const exact = parseUsd(PRICES.prompt) * BigInt(usage.prompt_tokens) + parseUsd(PRICES.completion) * 2n + parseUsd(PRICES.internal_reasoning) * 5n;
    expect((await generation(id)).cost_usd).toBe(formatUsd(exact));
  });

  it('details are absent when nothing was cached or reasoned', async () => {
    const { json } = await whole({ messages: user('Plain [[sim tokens=2]]') });
    expect(json.usage).not.toHaveProperty('prompt_tokens_details');
    expect(json.usage).not.toHaveProperty('completion_tokens_details');
  });

  it('the streamed usage chunk carries the same details and cost', async () => {
    const { chunks } = await streamed({ messages: user('Cache me please now [[sim tokens=2 cached=2]]') });
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage).toMatchObject({ prompt_tokens_details: { cached_tokens: 2 } });
    expect(Object.keys(last?.usage ?? {}).at(-1)).toBe('cost');
  });
});
