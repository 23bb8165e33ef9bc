import { writeFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setWorkspaceRoutingDefaults } from '../../src/accounts/workspace-routing.js';
import { createAccount } from '../../src/accounts/accounts.js';
import { catalogueYaml, send, startHarness, type ErrorEnvelope, type Harness, type ModelSpec } from './harness.js';

/** sim-c keeps request data and runs in Germany; the other providers keep nothing and run in the US. */
const PROVIDERS = { 'sim-c': { compliance: { zdr: false, hipaa: false }, datacenters: ['DE'], privacy_policy_url: 'https://sim-c.example/privacy' } };

const MODELS: ModelSpec[] = [
  {
    id: 'acme/chat', name: 'Acme: Chat', created: '2025-06-01', description: 'A chat model.', family: { id: 'acme-chat', name: 'Acme Chat' },
    endpoints: [
      { provider: 'sim-b', upstream_model: 'chat', pricing: { prompt: '0.000003', completion: '0.000006' } },
      { provider: 'sim-a', upstream_model: 'chat', tokenizer: 'GPT', pricing: { prompt: '0.000001', completion: '0.000002' } },
    ],
  },
  {
    id: 'acme/private', name: 'Acme: Private', created: '2025-08-01', family: 'acme-chat',
    endpoints: [{ provider: 'sim-c', upstream_model: 'chat', pricing: { prompt: '0.00001', completion: '0.00002' } }],
  },
  { id: 'acme/retired', name: 'Acme: Retired', created: '2025-09-01', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', disabled: true }] },
];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ models: MODELS, providers: PROVIDERS });
});

afterAll(async () => harness.close());

interface ListReply {
  data: { id: string; pricing: Record<string, unknown> }[];
  total_count: number;
  links: { next: string | null };
}

async function list(query = '', key: string | null = null): Promise<ListReply> {
  const reply = await send(harness, { path: `/models${query}`, key });
  expect(reply.status).toBe(200);
  return reply.json as ListReply;
}

function errorOf(json: unknown): ErrorEnvelope['error'] {
  return (json as ErrorEnvelope).error;
}

describe('GET /models', () => {
  it('lists the served models newest first, without a key, counted against the address', async () => {
    const reply = await send(harness, { path: '/models', key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-limit')).toBe('120');
    expect((reply.json as ListReply).data.map((model) => model.id)).toEqual(['acme/private', 'acme/chat']);
  });

  it('the whole list is gzipped for a caller that takes gzip, and reads the same', async () => {
    const plain = await send(harness, { path: '/models', key: null, headers: { 'accept-encoding': 'identity' } });
    const zipped = await send(harness, { path: '/models', key: null, headers: { 'accept-encoding': 'gzip' } });
    expect(plain.headers.get('content-encoding')).toBeNull();
    expect(zipped.headers.get('content-encoding')).toBe('gzip');
    expect(zipped.json).toEqual(plain.json);
  });

  it('narrows by every filter sent, and pages after filtering', async () => {
    expect((await list('?zdr=true')).data.map((model) => model.id)).toEqual(['acme/chat']);
    expect((await list('?region=eu&family=acme-chat')).data.map((model) => model.id)).toEqual(['acme/private']);
    expect((await list('?max_price=1')).data.map((model) => model.id)).toEqual(['acme/chat']);
    const page = await list('?sort=price-low-to-high&limit=1');
    expect(page).toMatchObject({ data: [{ id: 'acme/chat' }], total_count: 2, links: { next: '/api/v1/models?sort=price-low-to-high&limit=1&offset=1' } });
  });

  it('shows the prices of the cheapest endpoint as exact decimals, whatever the filters', async () => {
    const [chat] = (await list('?providers=sim-b')).data;
    expect(chat?.pricing).toEqual({ prompt: '0.000001', completion: '0.000002', discount: 0 });
  });

  it('an accepted-but-not-computed filter answers an empty list naming it', async () => {
    expect(await list('?category=programming&q=chat')).toEqual({ data: [], unsupported_filters: ['category'], total_count: 0, links: { next: null } });
  });

  it.each([
    ['?colour=red', 'colour'],
    ['?limit=0', 'limit'],
    ['?limit=5000', 'limit'],
    ['?min_price=cheap', 'min_price'],
    ['?max_output_price=1e-3', 'max_output_price'],
    ['?zdr=maybe', 'zdr'],
    ['?sort=random', 'sort'],
    ['?q=a&q=b', 'q'],
  ])('%s is refused with 400 naming %s', async (query, field) => {
    const reply = await send(harness, { path: `/models${query}`, key: null });
    expect(reply.status).toBe(400);
    expect(errorOf(reply.json)).toMatchObject({ code: 400, metadata: { error_type: 'invalid_request', field } });
  });
});

describe('odd input never fails the service', () => {
  it.each([
    '/models?limit=1.5', '/models?offset=99999999999999999999', '/models?min_price=0.', '/models?min_price=.5', '/models?q=%00%FF',
    '/models?q=%E0%A4%A', '/models?context=-1', '/models?providers=,,,', '/models?supported_parameters[]=tools', '/models?=', '/models?&&',
    '/models/%E0%A4%A', '/models/acme%2F', '/models/%2Fchat', '/models/a/b/c/d', '/models/acme/chat/endpoints?x=1', '/models/count?limit=1',
    `/models?q=${'x'.repeat(5000)}`, '/models?__proto__=1', '/models?sort=constructor', '/models?region=constructor', '/models?hasOwnProperty=x',
  ])('%s answers in the envelope, never 500', async (path) => {
    const reply = await send(harness, { path, key: null });
    expect(reply.status).toBeLessThan(500);
    if (reply.status !== 200) expect(errorOf(reply.json).metadata.error_type).toMatch(/^(invalid_request|not_found)$/);
  });

  it.each(['/models/count', '/providers', '/families', '/stats/public', '/speech/models', '/embeddings/models'])(
    '%s reads no query: a parameter is refused naming it',
    async (path) => {
      const reply = await send(harness, { path: `${path}?colour=red`, key: null });
      expect(reply.status).toBe(400);
      expect(errorOf(reply.json)).toMatchObject({ metadata: { error_type: 'invalid_request', field: 'colour' } });
    },
  );
});

describe('one model', () => {
  it('GET /models/:author/:slug and /model/:author/:slug answer the summary under data', async () => {
    for (const path of ['/models/acme/chat', '/model/acme/chat']) {
      const reply = await send(harness, { path, key: null });
      expect(reply.status).toBe(200);
      expect(reply.json).toMatchObject({ data: { id: 'acme/chat', canonical_slug: 'acme/chat', family: { id: 'acme-chat', name: 'Acme Chat' }, endpoint_count: 2 } });
    }
  });

  it('the one percent-encoded segment answers a bare object with object and owned_by', async () => {
    const reply = await send(harness, { path: '/models/acme%2Fchat', key: null });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ id: 'acme/chat', object: 'model', owned_by: 'acme', name: 'Acme: Chat', context_length: 32768 });
    expect((reply.json as Record<string, unknown>).data).toBeUndefined();
  });

  it.each(['/models/acme/unknown', '/models/acme/retired', '/model/acme/retired', '/models/acme%2Fretired', '/models/acme/retired/endpoints', '/models/nothing'])(
    '%s is 404 not_found',
    async (path) => {
      const reply = await send(harness, { path, key: null });
      expect(reply.status).toBe(404);
      expect(errorOf(reply.json).metadata.error_type).toBe('not_found');
    },
  );

  it('a family id is 404 naming the served variants of the family', async () => {
    const reply = await send(harness, { path: '/models/acme/acme-chat', key: null });
    expect(reply.status).toBe(404);
    expect(errorOf(reply.json).metadata).toMatchObject({ error_type: 'not_found', family_variants: ['acme/chat', 'acme/private'] });
  });

  it('the endpoints listing orders endpoints by provider slug; before any traffic a figure is null over a scanned, empty window', async () => {
    const reply = await send(harness, { path: '/models/acme/chat/endpoints', key: null });
    expect(reply.status).toBe(200);
    const data = (reply.json as { data: { id: string; endpoints: Record<string, unknown>[]; benchmarks_note: string } }).data;
    expect(data.id).toBe('acme/chat');
    expect(data.endpoints.map((endpoint) => endpoint.provider_slug)).toEqual(['sim-a', 'sim-b']);
    expect(data.endpoints[0]).toMatchObject({ status: 0, health: 'healthy', uptime_last_30m: null, uptime_last_30m_samples: 0, latency_last_30m: null, latency_last_30m_samples: 0 });
  });

  it('GET /models/count is the unfiltered total', async () => {
    expect((await send(harness, { path: '/models/count', key: null })).json).toEqual({ data: { count: 2 } });
  });
});

describe('GET /models/user', () => {
  it('needs a key', async () => {
    const reply = await send(harness, { path: '/models/user', key: null });
    expect(reply.status).toBe(401);
  });

  it('is the whole list for a workspace without a zero-retention default, and narrowed with one', async () => {
    expect((await list('/user', harness.key)).data.map((model) => model.id)).toEqual(['acme/private', 'acme/chat']);
    const strict = await createAccount(harness.gateway.store, { name: 'strict', creditsUsd: '1' });
    await setWorkspaceRoutingDefaults(harness.gateway.store, strict.workspaceId, { zdr: true });
    expect((await list('/user', strict.key)).data.map((model) => model.id)).toEqual(['acme/chat']);
  });

  it('pages with limit and offset, its next link naming /models/user', async () => {
    expect(await list('/user?limit=1', harness.key)).toMatchObject({
      data: [{ id: 'acme/private' }], total_count: 2, links: { next: '/api/v1/models/user?limit=1&offset=1' },
    });
  });

  it('reads no filter', async () => {
    const reply = await send(harness, { path: '/models/user?zdr=false' });
    expect(reply.status).toBe(400);
    expect(errorOf(reply.json).metadata.field).toBe('zdr');
  });
});

describe('providers, families and public statistics', () => {
  it('GET /providers lists every provider by slug with its pages and live endpoint count', async () => {
    const reply = await send(harness, { path: '/providers', key: null });
    const providers = (reply.json as { data: Record<string, unknown>[] }).data;
    expect(providers.map((provider) => provider.slug)).toEqual(['sim-a', 'sim-anthropic', 'sim-anthropic-b', 'sim-b', 'sim-c', 'sim-cohere']);
    expect(providers.find((provider) => provider.slug === 'sim-c')).toMatchObject({
      id: 'sim-c', name: 'Sim C', privacy_policy_url: 'https://sim-c.example/privacy', datacenters: ['DE'], endpoint_count: 1,
      compliance: { zdr: false, zdr_status: null, hipaa: false },
    });
  });

  it('GET /families lists families with their served models', async () => {
    expect((await send(harness, { path: '/families', key: null })).json).toEqual({
      data: [{ id: 'acme-chat', name: 'Acme Chat', model_count: 2, models: ['acme/private', 'acme/chat'] }],
    });
  });

  it('GET /stats/public counts what is served', async () => {
    const stats = (await send(harness, { path: '/stats/public', key: null })).json as { data: Record<string, unknown> };
    expect(stats.data).toMatchObject({ models: 2, endpoints: 3, endpoints_healthy: 3, providers: 3, families: 1 });
  });
});

describe('catalogue reload', () => {
  it('the list follows the file: a model added is listed shortly after the write', async () => {
    const added: ModelSpec = { id: 'acme/new', name: 'Acme: New', created: '2025-10-01', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] };
    await writeFile(harness.configPath, catalogueYaml(harness.sim.url, [...MODELS, added], { providers: PROVIDERS }));
    const deadline = Date.now() + 5_000;
    let ids = (await list()).data.map((model) => model.id);
    while (!ids.includes('acme/new') && Date.now() < deadline) {
      await sleep(100);
      ids = (await list()).data.map((model) => model.id);
    }
    expect(ids).toEqual(['acme/new', 'acme/private', 'acme/chat']);
    expect((await send(harness, { path: '/models/count', key: null })).json).toEqual({ data: { count: 3 } });
  });
});
