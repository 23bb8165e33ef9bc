import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startHarness, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=4' }] }] });
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
