import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Ledger } from '../../src/billing/types.js';
import { readSse, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

/** A reply whose charge the ledger could not record: no usage chunk, and a 503 `server` to repeat. */
let harness: Harness;
let settle: Ledger['settle'];

beforeAll(async () => {
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] }] });
  settle = harness.gateway.services.ledger.settle;
});

afterAll(async () => harness.close());

afterEach(() => {
  harness.gateway.services.ledger.settle = settle;
});

function ledgerDown(): void {
  harness.gateway.services.ledger.settle = () => Promise.reject(new Error('database unreachable'));
}

describe('accounting that cannot close', () => {
  it('a stream ends without its usage chunk, with an in-band 503 server error, then [DONE]', async () => {
    ledgerDown();
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/chat', stream: true, messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(200);
    const { data } = readSse(reply.text);
    expect(data.at(-1)).toBe('[DONE]');
    const chunks = data.slice(0, -1).map((payload) => JSON.parse(payload) as { usage?: unknown; error?: { code: number; metadata: { error_type: string } } });
    expect(chunks.some((chunk) => chunk.usage !== undefined)).toBe(false);
    expect(chunks.at(-1)?.error).toMatchObject({ code: 503, metadata: { error_type: 'server' } });
  });

  it('a whole reply is a 503 server error asking to repeat', async () => {
    ledgerDown();
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(503);
    expect((reply.json as ErrorEnvelope).error.metadata.error_type).toBe('server');
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
  });

  it('the next request, with the ledger back, is served and charged as usual', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(200);
    expect((reply.json as { usage: { cost: number } }).usage.cost).toBeGreaterThan(0);
  });
});
