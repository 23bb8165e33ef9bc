import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

interface GenerationData {
  id: string;
  model: string;
  provider_name: string | null;
  status: string;
  streamed: boolean;
  tokens_prompt: number | null;
  tokens_completion: number | null;
  total_cost: number;
  cost_usd: string;
  uncollected_usd: string | null;
  uncollected_reason: string | null;
}

interface ChatReply {
  id: string;
  usage: { prompt_tokens: number; completion_tokens: number; cost: number };
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{
      id: 'acme/chat',
      endpoints: [{ provider: 'sim-b', upstream_model: 'chat', pricing: { prompt: '0.00000025', completion: '0.0000125' } }],
    }],
  });
});

afterAll(async () => harness.close());

async function chat(stream: boolean): Promise<{ id: string; promptTokens: number; completionTokens: number; cost: number }> {
  const reply = await send(harness, {
    path: '/chat/completions',
    body: { model: 'acme/chat', stream, messages: [{ role: 'user', content: 'Read me back [[sim tokens=8]]' }] },
  });
  expect(reply.status).toBe(200);
  const id = reply.headers.get('x-generation-id') ?? '';
  if (!stream) {
    const body = reply.json as ChatReply;
    return { id, promptTokens: body.usage.prompt_tokens, completionTokens: body.usage.completion_tokens, cost: body.usage.cost };
  }
  const frames = reply.text.split('\n').filter((line) => line.startsWith('data: {'));
  const last = JSON.parse(frames.at(-1)?.slice(6) ?? '{}') as ChatReply;
  return { id, promptTokens: last.usage.prompt_tokens, completionTokens: last.usage.completion_tokens, cost: last.usage.cost };
}

describe('GET /generation', () => {
  it('an admitted stream reads back at once as pending, costing nothing yet, until it is settled', async () => {
    const caller = new AbortController();
    const { ledger } = harness.gateway.services;
    const settle = ledger.settle;
    const settled = new Promise<void>((resolve) => {
      ledger.settle = async (hold, record) => {
        await settle.call(ledger, hold, record);
        resolve();
      };
    });
    const response = await fetch(`${harness.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/chat', stream: true, messages: [{ role: 'user', content: 'Take your time [[sim tokens=1000 tps=10]]' }] }),
      signal: caller.signal,
    });
    const id = response.headers.get('x-generation-id') ?? '';
    const pending = await send(harness, { path: `/generation?id=${id}` });
    expect(pending.status).toBe(200);
    expect((pending.json as { data: GenerationData }).data).toMatchObject({ id, status: 'pending', streamed: true, total_cost: 0, cost_usd: '0' });
    caller.abort();
    await settled;
    ledger.settle = settle;
    const final = await send(harness, { path: `/generation?id=${id}` });
    expect((final.json as { data: GenerationData }).data).toMatchObject({ id, status: 'cancelled' });
  });

  it.each([false, true])('reads back the record of a reply (stream %s) with the same exact cost, nothing uncollected', async (stream) => {
    const answered = await chat(stream);
    const reply = await send(harness, { path: `/generation?id=${answered.id}` });
    expect(reply.status).toBe(200);
    const data = (reply.json as { data: GenerationData }).data;
    const exact = parseUsd('0.00000025') * BigInt(answered.promptTokens) + parseUsd('0.0000125') * BigInt(answered.completionTokens);
    expect(data.id).toBe(answered.id);
    expect(data.model).toBe('acme/chat');
    expect(data.provider_name).toBe('Sim B');
    expect(data.status).toBe('success');
    expect(data.streamed).toBe(stream);
    expect(data.tokens_prompt).toBe(answered.promptTokens);
    expect(data.tokens_completion).toBe(8);
    expect(data.cost_usd).toBe(formatUsd(exact));
    expect(data.total_cost).toBe(answered.cost);
    expect(data.uncollected_usd).toBeNull();
    expect(data.uncollected_reason).toBeNull();
  });

  it("another account's key gets 404 for a generation it does not own", async () => {
    const answered = await chat(false);
    const other = await createAccount(harness.gateway.store, { name: 'other', creditsUsd: '1' });
    const reply = await send(harness, { path: `/generation?id=${answered.id}`, key: other.key });
    expect(reply.status).toBe(404);
    expect((reply.json as ErrorEnvelope).error.metadata.error_type).toBe('not_found');
  });

  it('an unknown generation id gets 404', async () => {
    const reply = await send(harness, { path: '/generation?id=gen-doesnotexist' });
    expect(reply.status).toBe(404);
    expect((reply.json as ErrorEnvelope).error.code).toBe(404);
  });
});
