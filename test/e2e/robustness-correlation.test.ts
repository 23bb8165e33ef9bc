import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=4' }] },
      { id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=400;tps=40' }] },
      { id: 'acme/late', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;ttft=30000' }] },
      { id: 'acme/late-judge', endpoints: [{ provider: 'sim-a', upstream_model: 'judge;ttft=30000', supported_parameters: ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'] }] },
      {
        id: 'acme/tts',
        endpoints: [{
          provider: 'sim-a', upstream_model: 'tts;tps=2', input_modalities: ['text'], output_modalities: ['speech'], supported_parameters: [],
          speech_envelope: { voices: ['alloy'], codecs: ['wav'] }, pricing: { character: '0.000015' },
        }],
      },
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
    const data = reply.status === 200 ? (reply.json as { data: GenerationData }).data : undefined;
    if (data && data.status !== 'pending') return data;
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

  const nonStreamed = [
    { path: '/chat/completions', body: { model: 'acme/late', messages: USER } },
    { path: '/systemone', body: { model: 'acme/late-judge', state: 'Hi', questions: { q: { type: 'choice', instructions: 'Which?', criteria: { a: null, b: null } } } } },
  ];
  it.each(nonStreamed)('a non-streamed $path request it leaves while the provider works is recorded as cancelled with 408, charging nothing', async ({ path, body }) => {
    harness.sim.clearRequests();
    const before = await accountMoney(harness);
    await new Promise<void>((resolve) => {
      const request = httpRequest(new URL(`${harness.baseUrl}${path}`), {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      });
      request.on('error', () => resolve());
      request.end(JSON.stringify(body));
      void untilUpstreamAsked().then(() => request.destroy());
    });
    const record = await generationOnceSettled(await latestGenerationId(body.model));
    expect(record.status).toBe('cancelled');
    expect(record.error).toEqual({ code: 408, message: 'Request aborted client-side before it finished' });
    expect(record.total_cost).toBe(0);
    expect(await accountMoney(harness)).toEqual(before);
  });
});

describe('a caller that leaves speech mid-body', () => {
  it('is recorded as cancelled with 408 and charged for the characters synthesised for it', async () => {
    const before = await accountMoney(harness);
    const id = await new Promise<string>((resolve, reject) => {
      const request = httpRequest(new URL(`${harness.baseUrl}/audio/speech`), {
        method: 'POST',
        agent: false,
        headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      });
      request.on('response', (response) => {
        response.once('data', () => {
          request.destroy();
          resolve(String(response.headers['x-generation-id'] ?? ''));
        });
      });
      request.on('error', (error) => {
        if (!request.destroyed) reject(error);
      });
      request.end(JSON.stringify({ model: 'acme/tts', input: 'A sentence long enough to be spoken in several pieces.', response_format: 'wav' }));
    });
    const record = await generationOnceSettled(id);
    expect(record.status).toBe('cancelled');
    expect(record.error).toEqual({ code: 408, message: 'Request aborted client-side before it finished' });
    expect(record.total_cost).toBeGreaterThan(0);
    const after = await accountMoney(harness);
    expect(after.reserved).toBe(before.reserved);
    expect(before.balance - after.balance).toBeGreaterThan(0n);
  });
});

/** The id of the generation record of `model`, straight from the store (its reply never arrived). */
async function latestGenerationId(model: string): Promise<string> {
  for (let poll = 0; poll < 400; poll += 1) {
    const row = await harness.gateway.store.db.selectFrom('generations').select(['id']).where('model', '=', model).executeTakeFirst();
    if (row) return row.id;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  throw new Error(`no generation for ${model}`);
}

interface RefusalRecord {
  id: string;
  model: string;
  status: string;
  streamed: boolean;
  provider_name: string | null;
  error: { code: number; message: string } | null;
  total_cost: number;
  cost_usd: string;
  metadata: unknown;
}

/** The generation record read back by the X-Generation-Id of `reply`, as the caller would. */
async function recordOf(headers: Headers, key = harness.key): Promise<{ status: number; data?: RefusalRecord }> {
  const reply = await send(harness, { path: `/generation?id=${headers.get('x-generation-id') ?? ''}`, key });
  return { status: reply.status, ...(reply.status === 200 && { data: (reply.json as { data: RefusalRecord }).data }) };
}

describe('refusals before any credit is held are recorded under their X-Generation-Id (spec 02 Errors 6)', () => {
  it('400, 404 and 503 no_route read back as zero-cost error generations with the code and message answered', async () => {
    harness.sim.clearRequests();
    const before = await accountMoney(harness);
    const refusals = [
      { body: { model: 'acme/chat', messages: USER, temperature: 'hot', metadata: { ticket: 'T-1' } }, status: 400, model: 'acme/chat' },
      { body: { model: 'acme/none', stream: true, messages: USER }, status: 404, model: 'acme/none' },
      { body: { model: 'acme/chat', messages: USER, provider: { only: ['sim-b'] } }, status: 503, model: 'acme/chat' },
    ];
    for (const refusal of refusals) {
      const reply = await send(harness, { path: '/chat/completions', body: refusal.body });
      expect(reply.status, reply.text).toBe(refusal.status);
      const answered = (reply.json as ErrorEnvelope).error;
      const { status, data } = await recordOf(reply.headers);
      expect(status).toBe(200);
      expect(data).toMatchObject({
        id: reply.headers.get('x-generation-id'),
        model: refusal.model,
        status: 'error',
        streamed: refusal.body.stream === true,
        provider_name: null,
        error: { code: refusal.status, message: answered.message },
        total_cost: 0,
        cost_usd: '0',
      });
    }
    const first = await send(harness, { path: '/chat/completions', body: refusals[0]?.body });
    expect((await recordOf(first.headers)).data?.metadata).toEqual({ ticket: 'T-1' });
    expect(harness.sim.requests()).toHaveLength(0);
    expect(await accountMoney(harness)).toEqual(before);
  });

  it('a 402 for want of credit is recorded on the refused account, other dialects too', async () => {
    const poor = await createAccount(harness.gateway.store, { name: 'poor', creditsUsd: '0' });
    const reply = await send(harness, { path: '/messages', key: poor.key, body: { model: 'acme/chat', max_tokens: 16, messages: USER } });
    expect(reply.status).toBe(402);
    expect((await recordOf(reply.headers, poor.key)).data).toMatchObject({ status: 'error', error: { code: 402 }, total_cost: 0 });
    expect((await recordOf(reply.headers)).status).toBe(404);
  });

  it('bodies refused as they are read (too deep) are recorded once the key is known', async () => {
    const reply = await send(harness, { path: '/embeddings', rawBody: `{"model":"acme/chat","input":${'['.repeat(200)}${']'.repeat(200)}}` });
    expect(reply.status).toBe(400);
    expect((await recordOf(reply.headers)).data).toMatchObject({ status: 'error', error: { code: 400, message: expect.stringContaining('nested deeper') as unknown } });
  });

  it('count_tokens answers are no generations: its refusals leave no record', async () => {
    const reply = await send(harness, { path: '/messages/count_tokens', body: { model: 'acme/none', messages: USER } });
    expect(reply.status).toBe(404);
    expect((await recordOf(reply.headers)).status).toBe(404);
  });
});

describe('refusals that stay unrecorded', () => {
  it('a key over its rate limit (429) leaves no record, nor does a missing key (401)', async () => {
    const limited = await startHarness({
      models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }],
      settings: { rateLimits: { perKeyPerMinute: 1, perAddressPerMinute: 120 } },
    });
    try {
      const body = { model: 'acme/none', messages: USER };
      const first = await send(limited, { path: '/chat/completions', body });
      const second = await send(limited, { path: '/chat/completions', body });
      const anonymous = await send(limited, { path: '/chat/completions', body, key: null });
      expect([first.status, second.status, anonymous.status]).toEqual([404, 429, 401]);
      const rows = await limited.gateway.store.db.selectFrom('generations').select(['id', 'error_code']).execute();
      expect(rows).toEqual([{ id: first.headers.get('x-generation-id'), error_code: 404 }]);
    } finally {
      await limited.close();
    }
  });
});
