import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenRouter } from '@openrouter/sdk';
import { addCredits, createAccount, createKey } from '../../src/accounts/accounts.js';
import { formatUsd, toUsdNumber } from '../../src/billing/money.js';
import { send, startHarness, type Harness } from './harness.js';

const CHAT = { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] };
const REFUSED = { error: { code: 401, message: 'Missing or invalid API key', metadata: { error_type: 'authentication' } } };

let harness: Harness;
let sdk: OpenRouter;
/** What the served requests of the test were charged, exactly. */
let charged = 0n;
const generationIds: string[] = [];

async function chat(body: Record<string, unknown> = CHAT, key = harness.key): Promise<void> {
  const reply = await send(harness, { path: '/chat/completions', body, key });
  expect(reply.status, reply.text).toBe(200);
  const id = (reply.json as { id: string }).id;
  generationIds.push(id);
  const row = await harness.gateway.store.db.selectFrom('generations').select('cost_units').where('id', '=', id).executeTakeFirstOrThrow();
  charged += BigInt(row.cost_units);
}

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] },
      { id: 'acme/thinker', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=4;reasoning=5', supported_parameters: ['max_tokens', 'reasoning'] }] },
    ],
    credits: '10',
  });
  sdk = new OpenRouter({ serverURL: harness.baseUrl, apiKey: harness.key, retryConfig: { strategy: 'none' } });
  await addCredits(harness.gateway.store, harness.accountId, '2.5');
  await chat();
  await chat();
  await chat({ model: 'acme/thinker', messages: [{ role: 'user', content: 'Think' }], reasoning: { effort: 'high' } });
});

afterAll(async () => harness.close());

describe('GET /credits', () => {
  it('total_credits is every deposit ever made, total_usage everything ever charged; credits.getCredits parses it', async () => {
    const credits = await sdk.credits.getCredits();
    expect(credits.data.totalCredits).toBe(12.5);
    expect(credits.data.totalUsage).toBe(toUsdNumber(charged));
    expect(charged).toBeGreaterThan(0n);
  });

  it('refuses a query parameter, naming it', async () => {
    const reply = await send(harness, { path: '/credits?currency=eur' });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: { metadata: { field: 'currency' } } });
  });
});

describe('GET /activity', () => {
  it('one row per UTC day, model and endpoint, money summed exactly; analytics.getUserActivity parses it', async () => {
    const activity = await sdk.analytics.getUserActivity();
    const today = new Date().toISOString().slice(0, 10);
    const chatRow = activity.data.find((row) => row.model === 'acme/chat');
    expect(chatRow).toMatchObject({ date: today, modelPermaslug: 'acme/chat', providerName: 'Sim A', requests: 2, completionTokens: 6, byokUsageInference: 0 });
    expect(chatRow?.endpointId).toEqual(expect.any(String));
    const thinker = activity.data.find((row) => row.model === 'acme/thinker');
    expect(thinker).toMatchObject({ requests: 1, providerName: 'Sim B' });
    expect(thinker?.reasoningTokens).toBeGreaterThan(0);
    const rows = await harness.gateway.store.db.selectFrom('generations').select(['model', 'cost_units']).where('account_id', '=', harness.accountId).execute();
    for (const row of activity.data) {
      const exact = rows.filter((generation) => generation.model === row.model).reduce((sum, generation) => sum + BigInt(generation.cost_units), 0n);
      expect(row.usage).toBe(toUsdNumber(exact));
    }
  });

  it('date narrows to one of the last 30 UTC days; today has the rows, 29 days ago none', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const oldest = new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10);
    expect((await sdk.analytics.getUserActivity({ date: today })).data.length).toBe(2);
    expect((await sdk.analytics.getUserActivity({ date: oldest })).data).toEqual([]);
  });

  it('a date outside the 30 days, or not a UTC day, is a 400 naming date', async () => {
    const tooOld = new Date(Date.now() - 30 * 86_400_000).toISOString().slice(0, 10);
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    for (const date of [tooOld, tomorrow, '2025-02-30', '2025-1-1', 'yesterday']) {
      const reply = await send(harness, { path: `/activity?date=${date}` });
      expect(reply.status, date).toBe(400);
      expect(reply.json).toMatchObject({ error: { metadata: { error_type: 'invalid_request', field: 'date' } } });
    }
  });

  it('api_key_hash narrows to one key of the account, workspace_id to one workspace; group_by=workspace names it', async () => {
    const other = await createKey(harness.gateway.store, { accountId: harness.accountId, name: 'other' });
    await chat(CHAT, other.key);
    const byKey = await send(harness, { path: `/activity?api_key_hash=${other.hash}` });
    expect((byKey.json as { data: { requests: number }[] }).data).toEqual([expect.objectContaining({ model: 'acme/chat', requests: 1 })]);
    const grouped = await send(harness, { path: `/activity?group_by=workspace&workspace_id=${harness.workspaceId}` });
    expect((grouped.json as { data: { workspace_id: string }[] }).data.every((row) => row.workspace_id === harness.workspaceId)).toBe(true);
    for (const [query, field] of [['api_key_hash=nope', 'api_key_hash'], ['workspace_id=ws_none', 'workspace_id'], ['group_by=model', 'group_by'], ['user_id=u', 'user_id']]) {
      const reply = await send(harness, { path: `/activity?${query}` });
      expect(reply.status, query).toBe(400);
      expect(reply.json).toMatchObject({ error: { metadata: { field } } });
    }
  });
});

describe('GET /generation', () => {
  it('generations.getGeneration parses the record, with the SDK\'s members beside the spec\'s', async () => {
    const id = generationIds[0] ?? '';
    const generation = await sdk.generations.getGeneration({ id });
    const row = await harness.gateway.store.db.selectFrom('generations').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    expect(generation.data).toMatchObject({
      id, model: 'acme/chat', providerName: 'Sim A', streamed: false, cancelled: false, isByok: false,
      tokensCompletion: 3, nativeTokensCompletion: 3, totalCost: toUsdNumber(BigInt(row.cost_units)), usage: toUsdNumber(BigInt(row.cost_units)),
      workspaceId: harness.workspaceId, dataRegion: 'global', upstreamInferenceCost: null, presetId: null,
    });
    expect(generation.data.latency).toEqual(expect.any(Number));
    expect(generation.data.generationTime).toEqual(expect.any(Number));
    const raw = await send(harness, { path: `/generation?id=${id}` });
    expect(raw.json).toMatchObject({ data: { cost_usd: formatUsd(BigInt(row.cost_units)), latency_ms: expect.any(Number), tokens_prompt: expect.any(Number) } });
  });
});

describe('GET /key', () => {
  it('apiKeys.getCurrentKeyMetadata parses it; the spec\'s members are unchanged', async () => {
    const metadata = await sdk.apiKeys.getCurrentKeyMetadata();
    expect(metadata.data).toMatchObject({
      isManagementKey: false, isProvisioningKey: false, isFreeTier: false, byokUsage: 0, includeByokInLimit: false,
      workspaceId: harness.workspaceId, organizationId: harness.accountId, creatorUserId: null, allowedDataRegions: ['global'],
      rateLimit: { requests: 600, interval: '60s' }, freeModelDailyRequests: { limit: 0, remaining: 0, used: 0 },
    });
    const raw = (await send(harness, { path: '/key' })).json as { data: Record<string, unknown> };
    expect(raw.data).toMatchObject({ limit: null, limit_remaining: null, limit_reset: null, is_free_tier: false, expires_at: null, usage: toUsdNumber(charged - (await otherKeyCharge())) });
    expect(Object.keys(raw.data)).toEqual(expect.arrayContaining(['label', 'name', 'limit', 'limit_remaining', 'limit_reset', 'usage', 'usage_daily', 'usage_weekly', 'usage_monthly', 'is_free_tier', 'expires_at']));
  });
});

/** What the test's second key was charged (the harness key's usage excludes it). */
async function otherKeyCharge(): Promise<bigint> {
  const rows = await harness.gateway.store.db.selectFrom('generations').innerJoin('api_keys', 'api_keys.id', 'generations.key_id').select('generations.cost_units').where('api_keys.name', '=', 'other').execute();
  return rows.reduce((sum, row) => sum + BigInt(row.cost_units), 0n);
}

describe('routes that report spend refuse management keys (spec 02 Authentication 5)', () => {
  it('a management key gets the one identical 401 on /credits, /activity, /generation and /key', async () => {
    const management = await createKey(harness.gateway.store, { accountId: harness.accountId, management: true });
    for (const path of ['/credits', '/activity', `/generation?id=${generationIds[0] ?? ''}`, '/key']) {
      const reply = await send(harness, { path, key: management.key });
      expect(reply.status, path).toBe(401);
      expect(reply.json, path).toEqual(REFUSED);
    }
  });

  it('every account route counts against the key and carries the X-RateLimit headers', async () => {
    for (const path of ['/credits', '/activity', `/generation?id=${generationIds[0] ?? ''}`]) {
      const reply = await send(harness, { path });
      expect(reply.status, path).toBe(200);
      expect(reply.headers.get('x-ratelimit-limit'), path).toBe('600');
      expect(reply.headers.get('x-ratelimit-remaining'), path).toMatch(/^\d+$/);
    }
  });

  it('another account\'s key sees none of this account\'s money', async () => {
    const stranger = await createAccount(harness.gateway.store, { name: 'stranger', creditsUsd: '1' });
    const credits = (await send(harness, { path: '/credits', key: stranger.key })).json;
    expect(credits).toEqual({ data: { total_credits: 1, total_usage: 0 } });
    expect((await send(harness, { path: '/activity', key: stranger.key })).json).toEqual({ data: [] });
    expect((await send(harness, { path: `/generation?id=${generationIds[0] ?? ''}`, key: stranger.key })).status).toBe(404);
  });
});
