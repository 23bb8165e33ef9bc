import { writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GATEWAY_DATABASES } from '../support/store-engines.js';
import { catalogueYaml, rawReply, send, startHarness, type Harness, type ModelSpec, type RawReply } from './harness.js';
import { parseSamples, sampleValue, type Sample } from './metrics-text.js';

/**
 * What the machines watching an instance read (docs/operating.md, "Health, metrics and logs"):
 * `/healthz`, `/readyz` and `/metrics` at the root, outside `/api/v1`, with no key and no rate limit.
 */
const CHAT_ROUTE = '/api/v1/chat/completions';
const ADDRESS_LIMIT = 5;

const MODELS: ModelSpec[] = [
  { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] },
  {
    id: 'acme/failover',
    endpoints: [
      { provider: 'sim-a', upstream_model: 'chat;error=503', pricing: { prompt: '0.0000001', completion: '0.0000002' } },
      { provider: 'sim-b', upstream_model: 'chat;tokens=3' },
    ],
  },
  { id: 'acme/slow', endpoints: [{ provider: 'sim-c', upstream_model: 'chat;tokens=400;tps=40' }] },
  // 2,000 reasoning tokens whatever max_tokens says: more than any hold covers.
  { id: 'acme/overrun', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;reasoning=2000' }] },
];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ models: MODELS, settings: { rateLimits: { perKeyPerMinute: 600, perAddressPerMinute: ADDRESS_LIMIT } } });
});

afterAll(async () => harness.close());

async function atRoot(gateway: Harness, path: string): Promise<RawReply> {
  return rawReply(await fetch(`${gateway.gateway.url}${path}`));
}

async function scrape(gateway: Harness = harness): Promise<Sample[]> {
  const reply = await atRoot(gateway, '/metrics');
  expect(reply.status).toBe(200);
  expect(reply.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseSamples(reply.text);
}

/** Scrapes until `ready` holds of the samples (a gauge settling once a response closed); the last scrape otherwise. */
async function scrapeUntil(ready: (samples: Sample[]) => boolean): Promise<Sample[]> {
  let samples = await scrape();
  for (let poll = 0; poll < 200 && !ready(samples); poll += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
    samples = await scrape();
  }
  return samples;
}

function chat(body: Record<string, unknown>): Promise<RawReply> {
  return send(harness, { path: '/chat/completions', body: { messages: [{ role: 'user', content: 'Hi' }], ...body } });
}

describe('health', () => {
  it('/healthz answers 200 {status: ok}, with no key and not counted by any limit', async () => {
    const reply = await atRoot(harness, '/healthz');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ status: 'ok' });
    expect(reply.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('/readyz answers 200 when the database and the key store answer and the catalogue is loaded, naming each check', async () => {
    const reply = await atRoot(harness, '/readyz');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ status: 'ok', checks: [{ name: 'database', ok: true }, { name: 'key store', ok: true }, { name: 'catalogue', ok: true }] });
  });


  it('/readyz answers 503 naming the catalogue when it serves no endpoint', async () => {
    const empty = await startHarness({ models: [] });
    try {
      const reply = await atRoot(empty, '/readyz');
      expect(reply.status).toBe(503);
      expect(reply.json).toEqual({
        status: 'unavailable',
        checks: [{ name: 'database', ok: true }, { name: 'key store', ok: true }, { name: 'catalogue', ok: false, reason: 'the catalogue serves no endpoint' }],
      });
    } finally {
      await empty.close();
    }
  });
});

describe('while the instance drains', () => {
  it('/healthz still answers 200 and /readyz 503 naming the drain, in their own shapes; /readyz counts only endpoints not disabled', async () => {
    const gateway = await startHarness({
      models: [MODELS[2] as ModelSpec, { id: 'acme/off', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', disabled: true }] }],
      settings: { drainGraceMs: 3_000 },
    });
    const stream = await fetch(`${gateway.gateway.url}${CHAT_ROUTE}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${gateway.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/slow', stream: true, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    const reader = stream.body?.getReader();
    await reader?.read();
    const closing = gateway.close();
    try {
      expect(await atRoot(gateway, '/healthz')).toMatchObject({ status: 200, json: { status: 'ok' } });
      expect(await atRoot(gateway, '/readyz')).toMatchObject({
        status: 503,
        json: { status: 'unavailable', checks: [{ name: 'database', ok: true }, { name: 'key store', ok: true }, { name: 'catalogue', ok: true }, { name: 'drain', ok: false, reason: 'the instance is draining for a restart' }] },
      });
      expect((await send(gateway, { path: '/key' })).status).toBe(503);
    } finally {
      await reader?.cancel();
      await closing;
    }
  });

  it('a catalogue whose every endpoint is disabled serves nothing: /readyz 503 naming the catalogue', async () => {
    const off = await startHarness({ models: [{ id: 'acme/off', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', disabled: true }] }] });
    try {
      expect(await atRoot(off, '/readyz')).toMatchObject({ status: 503, json: { checks: [{ name: 'database', ok: true }, { name: 'key store', ok: true }, { name: 'catalogue', ok: false }] } });
    } finally {
      await off.close();
    }
  });
});

describe.each(GATEWAY_DATABASES)('/readyz on $name', (engine) => {
  it('answers 200 while the database answers, and 503 naming it once it cannot be queried; /healthz still 200', async () => {
    const database = await engine.open();
    const gateway = await startHarness({ models: [MODELS[0] as ModelSpec], databaseUrl: database.url });
    try {
      expect((await atRoot(gateway, '/readyz')).status).toBe(200);
      await gateway.gateway.store.close();
      const reply = await atRoot(gateway, '/readyz');
      expect(reply.status).toBe(503);
      expect(reply.json).toEqual({
        status: 'unavailable',
        checks: [{ name: 'database', ok: false, reason: expect.any(String) }, { name: 'key store', ok: true }, { name: 'catalogue', ok: true }],
      });
      expect((await atRoot(gateway, '/healthz')).status).toBe(200);
    } finally {
      await gateway.close().catch(() => undefined);
      await database.drop();
    }
  });
});

describe('metrics', () => {
  it('count requests by route and status, upstream attempts and failures by provider and endpoint, and the timings', async () => {
    expect((await chat({ model: 'acme/chat' })).status).toBe(200);
    expect((await chat({ model: 'acme/chat', stream: true })).status).toBe(200);
    expect((await chat({ model: 'acme/failover' })).status).toBe(200);
    expect((await chat({ model: 'acme/nothing' })).status).toBe(404);
    expect((await chat({ model: 'acme/chat', logprobs: true })).status).toBe(503);
    const samples = await scrapeUntil((now) => sampleValue(now, 'switchyard_http_requests_total', { route: CHAT_ROUTE }) >= 5);
    expect(sampleValue(samples, 'switchyard_http_requests_total', { route: CHAT_ROUTE, status: '200' })).toBe(3);
    expect(sampleValue(samples, 'switchyard_http_requests_total', { route: CHAT_ROUTE, status: '404' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_upstream_attempts_total', { provider: 'sim-a', endpoint: 'sim-a/acme/chat' })).toBe(2);
    expect(sampleValue(samples, 'switchyard_upstream_attempts_total', { provider: 'sim-a', endpoint: 'sim-a/acme/failover' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_upstream_failures_total', { provider: 'sim-a', endpoint: 'sim-a/acme/failover', reason: 'http' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_upstream_attempts_total', { provider: 'sim-b', endpoint: 'sim-b/acme/failover' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_upstream_failures_total', { provider: 'sim-b' })).toBe(0);
    expect(sampleValue(samples, 'switchyard_refusals_total', { code: 'not_found' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_refusals_total', { code: 'no_route' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_time_to_first_token_seconds_count', { route: CHAT_ROUTE, provider: 'sim-a' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_http_request_duration_seconds_count', { route: CHAT_ROUTE, provider: 'sim-b' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_ledger_write_duration_seconds_count', { operation: 'hold' })).toBe(3);
    expect(sampleValue(samples, 'switchyard_ledger_write_duration_seconds_count', { operation: 'settle' })).toBe(3);
    expect(sampleValue(samples, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
  });

  it('show a stream and its hold open while it runs, and neither once it ended', async () => {
    const controller = new AbortController();
    const response = await fetch(`${harness.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/slow', stream: true, messages: [{ role: 'user', content: 'A long story' }] }),
      signal: controller.signal,
    });
    await response.body?.getReader().read();
    const running = await scrape();
    expect(sampleValue(running, 'switchyard_open_streams')).toBe(1);
    expect(sampleValue(running, 'switchyard_open_holds')).toBe(1);
    controller.abort();
    const ended = await scrapeUntil((now) => sampleValue(now, 'switchyard_open_holds') === 0 && sampleValue(now, 'switchyard_open_streams') === 0);
    expect(sampleValue(ended, 'switchyard_open_streams')).toBe(0);
    expect(sampleValue(ended, 'switchyard_open_holds')).toBe(0);
  });

  it('count charges cut at the hold per endpoint', async () => {
    expect((await chat({ model: 'acme/overrun', max_tokens: 10 })).status).toBe(200);
    const samples = await scrape();
    expect(sampleValue(samples, 'switchyard_charge_overruns_total', { endpoint: 'sim-a/acme/overrun' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_uncollected_usd_total', { endpoint: 'sim-a/acme/overrun' })).toBeGreaterThan(0);
  });

  it('count catalogue reloads by outcome', async () => {
    await writeFile(harness.configPath, catalogueYaml(harness.sim.url, [...MODELS, { id: 'acme/new', endpoints: [{ provider: 'sim-b', upstream_model: 'chat' }] }]));
    const applied = await scrapeUntil((now) => sampleValue(now, 'switchyard_catalogue_reloads_total', { outcome: 'reloaded' }) === 1);
    expect(sampleValue(applied, 'switchyard_catalogue_reloads_total', { outcome: 'reloaded' })).toBe(1);
    await writeFile(harness.configPath, 'providers: [unclosed\nmodels: {');
    const refused = await scrapeUntil((now) => sampleValue(now, 'switchyard_catalogue_reloads_total', { outcome: 'refused' }) === 1);
    expect(sampleValue(refused, 'switchyard_catalogue_reloads_total', { outcome: 'refused' })).toBe(1);
  });

  it('are kept per instance: a second gateway in the same process counts only its own requests', async () => {
    const other = await startHarness({ models: [MODELS[0] as ModelSpec] });
    try {
      const samples = await scrape(other);
      expect(sampleValue(samples, 'switchyard_http_requests_total', { route: CHAT_ROUTE })).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('neither health nor metrics is rate limited', () => {
  it('past the address limit (429, counted by limit), /healthz, /readyz and /metrics still answer 200', async () => {
    const statuses: number[] = [];
    for (let sent = 0; sent <= ADDRESS_LIMIT && statuses.at(-1) !== 429; sent += 1) statuses.push((await send(harness, { path: '/', key: null })).status);
    expect(statuses.at(-1)).toBe(429);
    for (let probe = 0; probe < 3 * ADDRESS_LIMIT; probe += 1) {
      expect((await atRoot(harness, '/healthz')).status).toBe(200);
      expect((await atRoot(harness, '/readyz')).status).toBe(200);
      expect((await atRoot(harness, '/metrics')).status).toBe(200);
    }
    const samples = await scrape();
    expect(sampleValue(samples, 'switchyard_rate_limited_total', { limit: 'address' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_http_requests_total', { route: '/api/v1', status: '429' })).toBe(1);
    expect(sampleValue(samples, 'switchyard_http_requests_total', { route: '/healthz', status: '200' })).toBeGreaterThanOrEqual(3 * ADDRESS_LIMIT);
  });
});
