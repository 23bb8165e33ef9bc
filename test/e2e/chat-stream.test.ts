import { request as httpRequest, type IncomingMessage } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { readSse, send, startHarness, type Harness } from './harness.js';

/** A `chat.completion.chunk` as the gateway sends it, members beyond the client's types included. */
interface Chunk {
  id: string;
  object: string;
  model: string;
  provider: string;
  choices: Array<{ delta: { content?: string }; finish_reason: string | null }>;
  usage?: { prompt_tokens?: number; completion_tokens?: number; total_tokens?: number; cost: number };
  error?: { code: number; message: string; metadata: { error_type: string; [member: string]: unknown } };
}

interface GenerationData {
  cost_usd: string;
  tokens_prompt: number | null;
  tokens_completion: number | null;
  status: string;
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
      { id: 'acme/failing', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;fail_after=2' }] },
      { id: 'acme/dropping', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;disconnect_after=2' }] },
      { id: 'acme/down', endpoints: [{ provider: 'sim-c', upstream_model: 'chat;error=500' }] },
    ],
  });
});

afterAll(async () => harness.close());

function streamBody(model: string, content: string): Record<string, unknown> {
  return { model, stream: true, messages: [{ role: 'user', content }] };
}

async function rawStream(model: string, content: string): Promise<{ status: number; generationId: string | null; chunks: Chunk[]; data: string[] }> {
  const reply = await send(harness, { path: '/chat/completions', body: streamBody(model, content) });
  const { data } = readSse(reply.text);
  const chunks = data.filter((payload) => payload !== '[DONE]').map((payload) => JSON.parse(payload) as Chunk);
  return { status: reply.status, generationId: reply.headers.get('x-generation-id'), chunks, data };
}

async function generation(id: string): Promise<GenerationData> {
  const reply = await send(harness, { path: `/generation?id=${encodeURIComponent(id)}` });
  expect(reply.status).toBe(200);
  return (reply.json as { data: GenerationData }).data;
}

describe('streamed chat completion', () => {
  it('chunks from the official client concatenate to the answer text', async () => {
    const stream = await harness.client.chat.completions.create({
      model: 'acme/chat',
      stream: true,
      messages: [{ role: 'user', content: 'Hello [[sim tokens=6]]' }],
    });
    let text = '';
    let finish: string | null = null;
    for await (const chunk of stream) {
      expect(chunk.object).toBe('chat.completion.chunk');
      expect(chunk.id).toMatch(/^gen-/);
      text += chunk.choices[0]?.delta.content ?? '';
      finish = chunk.choices[0]?.finish_reason ?? finish;
    }
    expect(text).toBe('Hello from the provider simulator,');
    expect(finish).toBe('stop');
  });

  it('the last data frame before [DONE] has empty choices and the usage with its exact cost', async () => {
    const { status, chunks, data } = await rawStream('acme/chat', 'Hello [[sim tokens=4]]');
    expect(status).toBe(200);
    expect(data.at(-1)).toBe('[DONE]');
    const last = chunks.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.completion_tokens).toBe(4);
    const prompt = last?.usage?.prompt_tokens ?? 0;
    expect(last?.usage?.total_tokens).toBe(prompt + 4);
    const cost = parseUsd('0.000001') * BigInt(prompt) + parseUsd('0.000002') * 4n;
    expect(last?.usage?.cost).toBe(Number(formatUsd(cost)));
    for (const chunk of chunks) {
      expect(chunk.model).toBe('acme/chat');
      expect(chunk.provider).toBe('Sim A');
    }
  });

  it('the raw event stream ends with data: [DONE], its head the reply\'s headers so far with the provider and the stream\'s own', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: streamBody('acme/chat', 'Hi') });
    expect(reply.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(reply.headers.get('cache-control')).toBe('no-cache');
    expect(reply.headers.get('x-accel-buffering')).toBe('no');
    expect(reply.headers.get('x-provider-name')).toBe('Sim A');
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
    expect(reply.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(reply.text.trimEnd().endsWith('data: [DONE]')).toBe(true);
  });
});

/** A stream read by a caller who stops reading for `pauseMs` once the first bytes came: its body as text. */
async function readPausing(content: string, pauseMs: number): Promise<string> {
  const body = JSON.stringify(streamBody('acme/chat', content));
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const outgoing = httpRequest(`${harness.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
    }, resolve);
    outgoing.on('error', reject);
    outgoing.end(body);
  });
  const chunks: Buffer[] = [];
  let paused = false;
  response.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (paused) return;
    paused = true;
    response.pause();
    setTimeout(() => response.resume(), pauseMs);
  });
  await new Promise((resolve) => response.on('end', resolve));
  return Buffer.concat(chunks).toString();
}

describe('a caller who reads slowly', () => {
  it('holds the stream back: every frame arrives, in order, once, then the usage and [DONE]', async () => {
    // several MB of frames: more than the sockets between the gateway and the caller hold
    const content = 'Hello [[sim tokens=20000]]';
    const slow = readSse(await readPausing(content, 400)).data;
    await sleep(10);
    const { data } = await rawStream('acme/chat', content);
    const texts = (frames: string[]) => frames.filter((frame) => frame !== '[DONE]').map((frame) => (JSON.parse(frame) as Chunk).choices[0]?.delta.content ?? '');
    expect(slow.length).toBeGreaterThan(20_000);
    expect(texts(slow).join('')).toBe(texts(data).join(''));
    expect(slow.at(-1)).toBe('[DONE]');
    expect((JSON.parse(slow.at(-2) ?? '{}') as Chunk).usage?.completion_tokens).toBe(20_000);
  });
});

describe('stream failure after commit', () => {
  it('an upstream in-band failure ends with an error chunk, finish_reason error, then [DONE]', async () => {
    const { status, chunks, data } = await rawStream('acme/failing', 'Hello there');
    expect(status).toBe(200);
    expect(data.at(-1)).toBe('[DONE]');
    const last = chunks.at(-1);
    expect(last?.choices[0]?.finish_reason).toBe('error');
    expect(typeof last?.error?.code).toBe('number');
    expect(last?.error?.message).toBeTruthy();
    expect(last?.error?.metadata.error_type).toBeTruthy();
    expect(last?.error?.metadata.provider_name).toBe('Sim A');
    expect(last?.error?.metadata.raw).toBe('{"error":{"message":"simulated mid-stream failure","code":500}}');
    expect(chunks.filter((chunk) => chunk.error !== undefined)).toHaveLength(1);
    expect(chunks.some((chunk) => chunk.usage !== undefined)).toBe(false);
    const text = chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Hello from');
  });

  it('a failed stream is billed only for the tokens it produced', async () => {
    const failed = await rawStream('acme/failing', 'Same prompt for both');
    const full = await rawStream('acme/chat', 'Same prompt for both');
    const failedRecord = await generation(failed.generationId ?? '');
    const failedCost = parseUsd(failedRecord.cost_usd);
    const fullCost = parseUsd((await generation(full.generationId ?? '')).cost_usd);
    expect(failedRecord.status).toBe('error');
    expect(failedRecord.tokens_completion).toBe(2);
    expect(failedCost).toBe(parseUsd('0.000001') * BigInt(failedRecord.tokens_prompt ?? 0) + parseUsd('0.000002') * 2n);
    expect(failedCost).toBeGreaterThan(0n);
    expect(failedCost).toBeLessThan(fullCost);
  });

  it('a provider closing mid-answer gives an in-band 502 saying the stream closed before the answer finished', async () => {
    const { status, chunks, data } = await rawStream('acme/dropping', 'Hello there');
    expect(status).toBe(200);
    expect(data.at(-1)).toBe('[DONE]');
    const last = chunks.at(-1);
    expect(last?.choices[0]?.finish_reason).toBe('error');
    expect(last?.error?.code).toBe(502);
    expect(last?.error?.message).toMatch(/stream closed before the answer finished/i);
    expect(last?.error?.metadata).not.toHaveProperty('raw');
  });

  it('a stream whose every endpoint fails before the first byte answers with an HTTP error status', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: streamBody('acme/down', 'Hello') });
    expect(reply.status).toBe(502);
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
    expect((reply.json as { error: { code: number } }).error.code).toBe(502);
  });
});
