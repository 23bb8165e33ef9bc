import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/accounts/accounts.js';
import { send, startHarness, type Harness, type RawReply } from './harness.js';

const MODELS = [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }];
const CHAT = { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] };

function rateHeaders(reply: RawReply): Record<string, string | null> {
  return {
    limit: reply.headers.get('x-ratelimit-limit'),
    remaining: reply.headers.get('x-ratelimit-remaining'),
    reset: reply.headers.get('x-ratelimit-reset'),
  };
}

describe('route scopes: every counted response carries the rate-limit headers', () => {
  let harness: Harness;
  beforeAll(async () => {
    harness = await startHarness({ models: MODELS, settings: { rateLimits: { perKeyPerMinute: 50, perAddressPerMinute: 8 } } });
  });
  afterAll(async () => harness.close());

  it.each([
    ['GET /key', { path: '/key' }],
    ['GET /generation of an unknown id (404)', { path: '/generation?id=gen-missing' }],
    ['POST /chat/completions', { path: '/chat/completions', body: CHAT }],
    ['POST /messages/count_tokens', { path: '/messages/count_tokens', body: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] } }],
  ])('%s counts against the key and says so', async (_name, request) => {
    const reply = await send(harness, request);
    const headers = rateHeaders(reply);
    expect(headers.limit).toBe('50');
    expect(Number(headers.remaining)).toBeLessThan(50);
    expect(Number(headers.reset)).toBeGreaterThan(Date.now() / 1000 - 1);
  });

  it('the key limit counts every authenticated request, whatever the route', async () => {
    const before = Number(rateHeaders(await send(harness, { path: '/key' })).remaining);
    await send(harness, { path: '/generation?id=gen-missing' });
    await send(harness, { path: '/chat/completions', body: { model: 'acme/nothing', messages: [] } });
    const after = Number(rateHeaders(await send(harness, { path: '/key' })).remaining);
    expect(before - after).toBe(3);
  });

  it('a management key is refused with the one 401 on key routes', async () => {
    const management = await createKey(harness.gateway.store, { accountId: harness.accountId, management: true });
    const reply = await send(harness, { path: '/key', key: management.key });
    expect(reply.status).toBe(401);
    expect(reply.json).toEqual({ error: { code: 401, message: 'Missing or invalid API key', metadata: { error_type: 'authentication' } } });
  });

  it('an inference reply refused for its key still carries X-Generation-Id, assigned before anything can fail', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: CHAT, key: 'sk-svc-v1-nothing' });
    expect(reply.status).toBe(401);
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
  });

  it('requests that do not authenticate count against their address, then get 429 with Retry-After', async () => {
    const statuses: number[] = [];
    let last: RawReply | undefined;
    for (let i = 0; i < 12; i += 1) {
      last = await send(harness, { path: '/chat/completions', body: CHAT, key: null, headers: { 'x-forwarded-for': '203.0.113.9' } });
      statuses.push(last.status);
    }
    expect(statuses).toContain(401);
    expect(statuses.at(-1)).toBe(429);
    expect(last?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(last?.headers.get('x-ratelimit-limit')).toBe('8');
  });

  it('the public scope counts by address too', async () => {
    const reply = await send(harness, { path: '/', key: null });
    expect(reply.headers.get('x-ratelimit-limit')).toBe('8');
  });
});
