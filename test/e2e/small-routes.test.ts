import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

interface KeyRecord {
  label: string;
  name: string;
  limit: number | null;
  limit_remaining: number | null;
  limit_reset: string | null;
  usage: number;
  usage_daily: number;
  usage_weekly: number;
  usage_monthly: number;
  is_free_tier: boolean;
  expires_at: string | null;
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] }],
  });
});

afterAll(async () => harness.close());

async function keyRecord(): Promise<KeyRecord> {
  const reply = await send(harness, { path: '/key' });
  expect(reply.status).toBe(200);
  return (reply.json as { data: KeyRecord }).data;
}

describe('GET /', () => {
  it('answers {name, status: ok} without a key', async () => {
    const reply = await send(harness, { path: '/', key: null });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ name: expect.any(String), status: 'ok' });
  });
});

describe('GET /key', () => {
  it('returns the key inspection record wrapped in data: the spec\'s members, then those @openrouter/sdk requires', async () => {
    const record = await keyRecord();
    expect(Object.keys(record).sort()).toEqual([
      'expires_at', 'is_free_tier', 'label', 'limit', 'limit_remaining', 'limit_reset', 'name',
      'usage', 'usage_daily', 'usage_monthly', 'usage_weekly',
      ...['allowed_data_regions', 'byok_usage', 'byok_usage_daily', 'byok_usage_monthly', 'byok_usage_weekly', 'creator_user_id', 'free_model_daily_requests',
        'include_byok_in_limit', 'is_management_key', 'is_provisioning_key', 'organization_id', 'rate_limit', 'workspace_id'],
    ].sort());
    expect(record.label).toMatch(/^sk-svc-v1-[0-9a-f]{3}\.\.\.[0-9a-f]{3}$/);
    expect(harness.key.startsWith(record.label.slice(0, 13))).toBe(true);
    expect(record.limit).toBeNull();
    expect(record.limit_reset).toBeNull();
    expect(record.is_free_tier).toBe(false);
    expect(record.expires_at).toBeNull();
  });

  it('usage grows by the cost of a served request, in every window', async () => {
    const before = await keyRecord();
    const reply = await harness.client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] });
    const cost = (reply.usage as unknown as { cost: number }).cost;
    expect(cost).toBeGreaterThan(0);
    const after = await keyRecord();
    expect(after.usage).toBeCloseTo(before.usage + cost, 15);
    expect(after.usage_daily).toBeCloseTo(before.usage_daily + cost, 15);
    expect(after.usage_weekly).toBeCloseTo(before.usage_weekly + cost, 15);
    expect(after.usage_monthly).toBeCloseTo(before.usage_monthly + cost, 15);
  });

  it('needs a key', async () => {
    const reply = await send(harness, { path: '/key', key: null });
    expect(reply.status).toBe(401);
  });
});

describe('GET /openapi.json', () => {
  it('is an OpenAPI document listing the chat completions route', async () => {
    const reply = await send(harness, { path: '/openapi.json', key: null });
    expect(reply.status).toBe(200);
    const document = reply.json as { openapi: string; paths: Record<string, unknown> };
    expect(document.openapi).toMatch(/^3\./);
    expect(document.paths).toHaveProperty(['/api/v1/chat/completions']);
  });
});

describe('unknown routes', () => {
  it.each([
    ['GET', '/no-such-route'],
    ['POST', '/no-such-route'],
    ['GET', '/chat/completions'],
  ])('%s %s answers the 404 envelope', async (method, path) => {
    const reply = await send(harness, { method, path, key: null });
    expect(reply.status).toBe(404);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.code).toBe(404);
    expect(error.metadata.error_type).toBe('not_found');
    expect(error.message).toBeTruthy();
  });
});
