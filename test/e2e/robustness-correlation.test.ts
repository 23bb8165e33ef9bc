import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountMoney, send, startHarness, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=4' }] },
      { id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=400;tps=40' }] },
      { id: 'acme/late', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;ttft=30000' }] },
    ],
  });
});

afterAll(async () => harness.close());

const USER = [{ role: 'user', content: 'Hi' }];

describe('X-Generation-Id on every inference response', () => {
  it('POST /messages/count_tokens carries one on its answer and on its errors', async () => {
    const counted = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/chat', messages: USER } });
    expect(counted.status).toBe(200);
    expect(counted.headers.get('x-generation-id')).toMatch(/^gen-/);
    const unknown = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/none', messages: USER } });
    expect(unknown.status).toBe(404);
    expect(unknown.headers.get('x-generation-id')).toMatch(/^gen-/);
    const unauthenticated = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/chat', messages: USER }, key: null });
    expect(unauthenticated.status).toBe(401);
    expect(unauthenticated.headers.get('x-generation-id')).toMatch(/^gen-/);
    expect(unauthenticated.headers.get('x-generation-id')).not.toBe(counted.headers.get('x-generation-id'));
  });
});

/** Streams `body` on its own connection and drops it at the first content; resolves to the generation id. */
function streamThenLeave(body: unknown): Promise<string> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(new URL(`${harness.baseUrl}/chat/completions`), {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
    });
    request.on('response', (response) => {
      resolve(String(response.headers['x-generation-id'] ?? ''));
      response.setEncoding('utf8');
      response.on('data', (text: string) => {
        if (text.includes('"content"')) request.destroy();
      });
    });
    request.on('error', (error) => {
      if (!request.destroyed) reject(error);
    });
    request.end(JSON.stringify(body));
  });
}

interface GenerationData {
  status: string;
  total_cost: number;
  error: { code: number; message: string } | null;
}

async function generationOnceSettled(id: string): Promise<GenerationData> {
  for (let poll = 0; poll < 400; poll += 1) {
    const reply = await send(harness, { path: `/generation?id=${id}` });
    if (reply.status === 200) return (reply.json as { data: GenerationData }).data;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no generation ${id}`);
}

async function untilUpstreamAsked(): Promise<void> {
  while (harness.sim.requests().length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a caller that leaves before the answer finished (spec 02: 408 timeout)', () => {
  it('a stream it leaves is recorded as cancelled with 408, billed for what was streamed', async () => {
    const before = await accountMoney(harness);
    const id = await streamThenLeave({ model: 'acme/slow', stream: true, messages: USER });
    const record = await generationOnceSettled(id);
    expect(record.status).toBe('cancelled');
    expect(record.error).toEqual({ code: 408, message: 'Request aborted client-side before it finished' });
    expect(record.total_cost).toBeGreaterThan(0);
    const after = await accountMoney(harness);
    expect(after.reserved).toBe(before.reserved);
    expect(before.balance - after.balance).toBeGreaterThan(0n);
  });

  it('a non-streamed request it leaves while the provider works is recorded as cancelled with 408, charging nothing', async () => {
    harness.sim.clearRequests();
    const before = await accountMoney(harness);
    await new Promise<void>((resolve) => {
      const request = httpRequest(new URL(`${harness.baseUrl}/chat/completions`), {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      });
      request.on('error', () => resolve());
      request.end(JSON.stringify({ model: 'acme/late', messages: USER }));
      void untilUpstreamAsked().then(() => request.destroy());
    });
    const record = await generationOnceSettled(await latestGenerationId());
    expect(record.status).toBe('cancelled');
    expect(record.error).toEqual({ code: 408, message: 'Request aborted client-side before it finished' });
    expect(record.total_cost).toBe(0);
    expect(await accountMoney(harness)).toEqual(before);
  });
});

/** The id of the account's most recent generation record, straight from the store (its reply never arrived). */
async function latestGenerationId(): Promise<string> {
  for (let poll = 0; poll < 400; poll += 1) {
    const row = await harness.gateway.store.db.selectFrom('generations').select(['id']).where('model', '=', 'acme/late').executeTakeFirst();
    if (row) return row.id;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error('no generation for acme/late');
}
