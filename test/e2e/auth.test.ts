import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey, revokeKey } from '../../src/accounts/accounts.js';
import { send, startHarness, type Harness, type RawReply } from './harness.js';

const CHAT = { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] };

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }],
  });
});

afterAll(async () => harness.close());

function chatWith(headers: Record<string, string>): Promise<RawReply> {
  return send(harness, { path: '/chat/completions', body: CHAT, key: null, headers });
}

function expectRefused(reply: RawReply): void {
  expect(reply.status).toBe(401);
  expect(reply.json).toEqual({
    error: { code: 401, message: 'Missing or invalid API key', metadata: { error_type: 'authentication' } },
  });
}

async function newKey(options: { management?: boolean; expiresAt?: Date } = {}): Promise<{ key: string; id: string }> {
  return createKey(harness.gateway.store, { accountId: harness.accountId, ...options });
}

describe('authentication refusals are one identical 401', () => {
  it('a missing key is refused', async () => {
    expectRefused(await chatWith({}));
  });

  it.each([
    ['not a key at all', 'Bearer hello'],
    ['a wrong prefix', `Bearer sk-other-v1-${'a'.repeat(64)}`],
    ['too short a key', `Bearer sk-svc-v1-${'a'.repeat(63)}`],
    ['upper-case hex', `Bearer sk-svc-v1-${'A'.repeat(64)}`],
    ['another scheme', 'Basic dXNlcjpwYXNz'],
  ])('a malformed key (%s) is refused', async (_name, authorization) => {
    expectRefused(await chatWith({ authorization }));
  });

  it('an unknown well-formed key is refused', async () => {
    expectRefused(await chatWith({ authorization: `Bearer sk-svc-v1-${randomBytes(32).toString('hex')}` }));
  });

  it('a revoked key is refused', async () => {
    const { key, id } = await newKey();
    expect(await revokeKey(harness.gateway.store, { id: id })).toBe(true);
    expectRefused(await chatWith({ authorization: `Bearer ${key}` }));
  });

  it('an expired key is refused', async () => {
    const { key } = await newKey({ expiresAt: new Date(Date.now() - 60_000) });
    expectRefused(await chatWith({ authorization: `Bearer ${key}` }));
  });

  it('a management key is refused on chat completions', async () => {
    const { key } = await newKey({ management: true });
    expectRefused(await chatWith({ authorization: `Bearer ${key}` }));
  });

  it('a management key is refused on the routes that report spend', async () => {
    const { key } = await newKey({ management: true });
    expectRefused(await send(harness, { path: '/key', key }));
    expectRefused(await send(harness, { path: '/generation?id=gen-any', key }));
  });

  it('an unknown key in x-api-key is refused', async () => {
    expectRefused(await chatWith({ 'x-api-key': `sk-svc-v1-${randomBytes(32).toString('hex')}` }));
  });

  it('a refused request still carries X-Generation-Id', async () => {
    const reply = await chatWith({});
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
  });
});

describe('accepted key headers', () => {
  it('Authorization: Bearer authenticates', async () => {
    const reply = await chatWith({ authorization: `Bearer ${harness.key}` });
    expect(reply.status).toBe(200);
  });

  it('x-api-key authenticates the same way', async () => {
    const reply = await chatWith({ 'x-api-key': harness.key });
    expect(reply.status).toBe(200);
  });

  it('the official client authenticates with its key', async () => {
    const reply = await harness.client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] });
    expect(reply.choices[0]?.message.content).toBe('Hello from');
  });
});

describe('revocation', () => {
  it('takes effect on the very next request', async () => {
    const { key, id } = await newKey();
    const first = await chatWith({ authorization: `Bearer ${key}` });
    expect(first.status).toBe(200);
    await revokeKey(harness.gateway.store, { id: id });
    expectRefused(await chatWith({ authorization: `Bearer ${key}` }));
  });

  it('leaves the account’s other keys working', async () => {
    const { id } = await newKey();
    await revokeKey(harness.gateway.store, { id: id });
    const reply = await chatWith({ authorization: `Bearer ${harness.key}` });
    expect(reply.status).toBe(200);
  });
});
