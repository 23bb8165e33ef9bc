import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { send, startHarness, type Harness } from './harness.js';

const PROMPT_PRICE = '0.0000003';
const COMPLETION_PRICE = '0.0000017';

/** What the reply's `usage` holds beyond the client's declared type. */
interface ReplyUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  total_tokens?: number;
  cost: number;
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/chat',
        endpoints: [{ provider: 'sim-a', upstream_model: 'chat', pricing: { prompt: PROMPT_PRICE, completion: COMPLETION_PRICE } }],
      },
      { id: 'acme/quiet', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;no_usage' }] },
      {
        id: 'acme/quiet-priced',
        endpoints: [{ provider: 'sim-c', upstream_model: 'chat;no_usage', pricing: { prompt: '0.000001', completion: '0.000002', request: '0.0004' } }],
      },
    ],
  });
});

afterAll(async () => harness.close());

function exactCost(promptTokens: number, completionTokens: number): string {
  return formatUsd(parseUsd(PROMPT_PRICE) * BigInt(promptTokens) + parseUsd(COMPLETION_PRICE) * BigInt(completionTokens));
}

describe('non-streamed chat completion reply', () => {
  it('has the chat.completion shape with the generation id, serving model and provider', async () => {
    const before = Math.floor(Date.now() / 1000);
    const { data: reply, response } = await harness.client.chat.completions
      .create({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hello [[sim tokens=5]]' }] })
      .withResponse();
    expect(reply.id).toMatch(/^gen-/);
    expect(reply.object).toBe('chat.completion');
    expect(Number.isInteger(reply.created)).toBe(true);
    expect(reply.created).toBeGreaterThanOrEqual(before - 1);
    expect(reply.model).toBe('acme/chat');
    expect((reply as unknown as { provider: string }).provider).toBe('Sim A');
    const choice = reply.choices[0];
    expect(choice?.index).toBe(0);
    expect(choice?.message.role).toBe('assistant');
    expect(choice?.message.content).toBe('Hello from the provider simulator');
    expect(choice?.finish_reason).toBe('stop');
    expect((choice as unknown as { native_finish_reason: string }).native_finish_reason).toBe('stop');
    expect(response.headers.get('x-generation-id')).toBe(reply.id);
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
  });

  it('reports both counts, their total, and the exact cost at the endpoint prices', async () => {
    const reply = await harness.client.chat.completions.create({
      model: 'acme/chat',
      messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'Count to seven [[sim tokens=7]]' }],
    });
    const usage = reply.usage as unknown as ReplyUsage;
    expect(usage.completion_tokens).toBe(7);
    expect(usage.prompt_tokens).toBeGreaterThan(0);
    expect(usage.total_tokens).toBe((usage.prompt_tokens ?? 0) + 7);
    const exact = exactCost(usage.prompt_tokens ?? 0, 7);
    expect(usage.cost).toBe(Number(exact));
    expect(Object.keys(usage).at(-1)).toBe('cost');
    const record = await send(harness, { path: `/generation?id=${reply.id}` });
    expect((record.json as { data: { cost_usd: string } }).data.cost_usd).toBe(exact);
  });

  it('a ceiling below the answer ends it with finish_reason length, billed for the tokens produced', async () => {
    const reply = await harness.client.chat.completions.create({
      model: 'acme/chat',
      max_tokens: 3,
      messages: [{ role: 'user', content: 'Talk a lot [[sim tokens=9]]' }],
    });
    expect(reply.choices[0]?.finish_reason).toBe('length');
    const usage = reply.usage as unknown as ReplyUsage;
    expect(usage.completion_tokens).toBe(3);
    expect(usage.cost).toBe(Number(exactCost(usage.prompt_tokens ?? 0, 3)));
  });
});

describe('usage omitted by the endpoint', () => {
  it('leaves the counts and total_tokens out and charges 0 without a request price', async () => {
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/quiet', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status).toBe(200);
    const usage = (reply.json as { usage: Record<string, unknown> }).usage;
    expect(usage).not.toHaveProperty('prompt_tokens');
    expect(usage).not.toHaveProperty('completion_tokens');
    expect(usage).not.toHaveProperty('total_tokens');
    expect(usage.cost).toBe(0);
  });

  it('still charges the request price when the endpoint declares one', async () => {
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/quiet-priced', messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status).toBe(200);
    const usage = (reply.json as { usage: Record<string, unknown> }).usage;
    expect(usage).not.toHaveProperty('total_tokens');
    expect(usage.cost).toBe(0.0004);
  });
});
