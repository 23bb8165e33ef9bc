import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { accountMoney, readSse, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const CHEAP = { prompt: '0.0000001', completion: '0.0000002' };

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/failover',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;error=503', pricing: CHEAP },
          { provider: 'sim-b', upstream_model: 'chat' },
        ],
      },
      {
        id: 'acme/failover-stream',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;error=503;tokens=4', pricing: CHEAP },
          { provider: 'sim-c', upstream_model: 'chat;tokens=4' },
        ],
      },
      {
        id: 'acme/failover-dropped',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;disconnect_after=0', pricing: CHEAP },
          { provider: 'sim-b', upstream_model: 'chat;tokens=3' },
        ],
      },
      { id: 'acme/broken', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;error=500' }] },
      { id: 'acme/backup', endpoints: [{ provider: 'sim-c', upstream_model: 'chat' }] },
      {
        id: 'acme/all-down',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;error=503', pricing: CHEAP },
          { provider: 'sim-b', upstream_model: 'chat;error=500' },
        ],
      },
    ],
  });
});

afterAll(async () => harness.close());

function upstreamModels(): string[] {
  return harness.sim.requests().map((request) => (request.body as { model: string }).model);
}

describe('failover between endpoints of one model', () => {
  it('an endpoint failing before the answer is replaced by the next one, which serves the reply', async () => {
    harness.sim.clearRequests();
    const reply = await harness.client.chat.completions.create({ model: 'acme/failover', messages: [{ role: 'user', content: 'Hi' }] });
    expect((reply as unknown as { provider: string }).provider).toBe('Sim B');
    expect(reply.model).toBe('acme/failover');
    expect(reply.choices[0]?.message.content).toBeTruthy();
    expect(upstreamModels()).toEqual(['chat;error=503', 'chat']);
  });

  it('a stream fails over before commit and is served by the next endpoint', async () => {
    harness.sim.clearRequests();
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/failover-stream', stream: true, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status).toBe(200);
    const chunks = readSse(reply.text).data.filter((data) => data !== '[DONE]').map((data) => JSON.parse(data) as { provider: string; error?: unknown; choices: Array<{ delta: { content?: string } }> });
    expect(chunks.every((chunk) => chunk.provider === 'Sim C' && chunk.error === undefined)).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello from the provider');
    expect(upstreamModels()).toEqual(['chat;error=503;tokens=4', 'chat;tokens=4']);
  });

  it('a stream whose provider drops the connection before any chunk fails over', async () => {
    const stream = await harness.client.chat.completions.create({
      model: 'acme/failover-dropped',
      stream: true,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    let text = '';
    let provider = '';
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      provider = (chunk as unknown as { provider: string }).provider;
    }
    expect(text).toBe('Hello from the');
    expect(provider).toBe('Sim B');
  });
});

describe('models fallback', () => {
  it('a model whose only endpoint fails falls back to the next listed model, which the reply names', async () => {
    const params: ChatCompletionCreateParamsNonStreaming & { models: string[] } = {
      model: 'acme/broken',
      models: ['acme/backup'],
      messages: [{ role: 'user', content: 'Hi' }],
    };
    const reply = await harness.client.chat.completions.create(params);
    expect(reply.model).toBe('acme/backup');
    expect((reply as unknown as { provider: string }).provider).toBe('Sim C');
  });
});

describe('every endpoint failing', () => {
  it('answers 502 with the provider metadata and the generation id, and charges nothing', async () => {
    const before = await accountMoney(harness);
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/all-down', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status).toBe(502);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.code).toBe(502);
    expect(['provider_error', 'provider_unavailable']).toContain(error.metadata.error_type);
    expect(typeof error.metadata.provider_status).toBe('number');
    expect(['Sim A', 'Sim B']).toContain(error.metadata.provider_name);
    expect(typeof error.metadata.raw).toBe('string');
    expect(JSON.parse(error.metadata.raw as string)).toHaveProperty('error');
    const generationId = reply.headers.get('x-generation-id');
    expect(generationId).toMatch(/^gen-/);
    const after = await accountMoney(harness);
    expect(after.balance).toBe(before.balance);
    expect(after.reserved).toBe(0n);
    const record = await send(harness, { path: `/generation?id=${generationId ?? ''}` });
    expect((record.json as { data: { cost_usd: string } }).data.cost_usd).toBe('0');
  });
});
