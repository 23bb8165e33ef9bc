import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUsd } from '../../src/billing/money.js';
import { GATEWAY_DATABASES, type ScratchDatabase } from '../support/store-engines.js';
import { accountMoney, readSse, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

interface GenerationData {
  status: string;
  finish_reason: string | null;
  native_finish_reason: string | null;
  cost_usd: string;
  tokens_completion: number | null;
  metadata: Record<string, unknown> | null;
}

describe.each(GATEWAY_DATABASES)('provider text holding NUL, gateway on $name', (engine) => {
  let database: ScratchDatabase;
  let harness: Harness;

  beforeAll(async () => {
    database = await engine.open();
    harness = await startHarness({
      databaseUrl: database.url,
      models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', pricing: { prompt: '0.000001', completion: '0.000002' } }] }],
    });
  });

  afterAll(async () => {
    await harness.close();
    await database.drop();
  });

  async function record(id: string): Promise<GenerationData> {
    const reply = await send(harness, { path: `/generation?id=${id}` });
    expect(reply.status).toBe(200);
    return (reply.json as { data: GenerationData }).data;
  }

  it('a streamed answer whose native finish reason holds NUL ends normally, is recorded (as U+FFFD) and charged', async () => {
    const before = await accountMoney(harness);
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/chat', stream: true, messages: [{ role: 'user', content: 'Hi [[sim tokens=4 native_finish=end\u0000turn]]' }] },
    });
    expect(reply.status).toBe(200);
    const frames = readSse(reply.text).data;
    expect(frames.at(-1)).toBe('[DONE]');
    expect(frames.some((frame) => frame.includes('"error"'))).toBe(false);
    const data = await record(reply.headers.get('x-generation-id') ?? '');
    expect(data.status).toBe('success');
    expect(data.native_finish_reason).toBe('end\uFFFDturn');
    expect(data.tokens_completion).toBe(4);
    const cost = parseUsd(data.cost_usd);
    expect(cost).toBeGreaterThan(0n);
    expect(await accountMoney(harness)).toEqual({ balance: before.balance - cost, reserved: 0n });
  });

  it('a whole reply with NUL in its native finish reason and in the request metadata is recorded and charged', async () => {
    const before = await accountMoney(harness);
    const reply = await send(harness, {
      path: '/chat/completions',
      body: {
        model: 'acme/chat',
        metadata: { 'ticket\u0000': 'T-1\u0000' },
        messages: [{ role: 'user', content: 'Hi [[sim tokens=3 native_finish=\u0000]]' }],
      },
    });
    expect(reply.status).toBe(200);
    const data = await record(reply.headers.get('x-generation-id') ?? '');
    expect(data.native_finish_reason).toBe('\uFFFD');
    expect(data.metadata).toEqual({ 'ticket\uFFFD': 'T-1\uFFFD' });
    expect(await accountMoney(harness)).toEqual({ balance: before.balance - parseUsd(data.cost_usd), reserved: 0n });
  });

  it('a request refused for naming an unknown model that holds NUL is answered 404 and recorded under its id', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/no\u0000such', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(404);
    const id = reply.headers.get('x-generation-id') ?? '';
    const stored = await send(harness, { path: `/generation?id=${id}` });
    expect(stored.status).toBe(200);
    expect((stored.json as { data: { model: string; status: string } }).data).toMatchObject({ model: 'acme/no\uFFFDsuch', status: 'error' });
  });

  it.each(['gen-%00abc', '%00', 'gen-abc%00', 'gen-ABC', 'gen-a.b', `gen-${'a'.repeat(65)}`])(
    'GET /generation?id=%s, an id that cannot exist, is 404',
    async (id) => {
      const reply = await send(harness, { path: `/generation?id=${id}` });
      expect(reply.status).toBe(404);
      expect((reply.json as ErrorEnvelope).error.metadata.error_type).toBe('not_found');
    },
  );
});
