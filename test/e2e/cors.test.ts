import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/accounts/accounts.js';
import { PREFLIGHT_MAX_AGE_SECONDS } from '../../src/http/cors.js';
import { startHarness, type Harness } from './harness.js';

const ORIGIN = 'https://chat.example';
const CHAT = { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] };

let harness: Harness;
let management: string;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] }],
    settings: { rateLimits: { perKeyPerMinute: 40, perAddressPerMinute: 30 } },
  });
  management = (await createKey(harness.gateway.store, { accountId: harness.accountId, management: true })).key;
});

afterAll(async () => harness.close());

function preflight(path: string, method = 'POST', headers = 'authorization, content-type'): Promise<Response> {
  return fetch(`${harness.gateway.url}${path}`, {
    method: 'OPTIONS',
    headers: { origin: ORIGIN, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });
}

function fromPage(path: string, init: { method?: string; key?: string | null; body?: unknown; headers?: Record<string, string> } = {}): Promise<Response> {
  const key = init.key === undefined ? harness.key : init.key;
  return fetch(`${harness.baseUrl}${path}`, {
    method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
    headers: {
      origin: ORIGIN,
      ...(key !== null && { authorization: `Bearer ${key}` }),
      ...(init.body !== undefined && { 'content-type': 'application/json' }),
      ...init.headers,
    },
    ...(init.body !== undefined && { body: JSON.stringify(init.body) }),
  });
}

function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries([...response.headers].filter(([name]) => name.startsWith('access-control-')));
}

describe('the key scope answers browser apps of any origin', () => {
  it('a preflight needs no key: 204 with any origin, the path\'s methods and the headers asked for, never credentials', async () => {
    const reply = await preflight('/api/v1/chat/completions', 'POST', 'Authorization, Content-Type, X-Stainless-OS, x-stainless-retry-count, HTTP-Referer, X-Title, x-api-key');
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.headers.get('access-control-allow-methods')?.split(', ')).toEqual(expect.arrayContaining(['POST', 'OPTIONS']));
    expect(reply.headers.get('access-control-allow-headers')?.split(', ')).toEqual(['authorization', 'content-type', 'x-stainless-os', 'x-stainless-retry-count', 'http-referer', 'x-title', 'x-api-key']);
    expect(reply.headers.get('access-control-max-age')).toBe(String(PREFLIGHT_MAX_AGE_SECONDS));
    expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('a preflight for a GET route names GET and HEAD', async () => {
    const reply = await preflight('/api/v1/key', 'GET');
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-methods')?.split(', ')).toEqual(expect.arrayContaining(['GET', 'HEAD', 'OPTIONS']));
  });

  it('a preflight counts against the client address, as every request without a key', async () => {
    const reply = await preflight('/api/v1/credits', 'GET');
    expect(reply.headers.get('x-ratelimit-limit')).toBe('30');
  });

  it('a malformed list of requested headers allows none', async () => {
    const reply = await preflight('/api/v1/chat/completions', 'POST', 'authorization, bad header');
    expect(reply.status).toBe(204);
    expect(reply.headers.get('access-control-allow-headers')).toBeNull();
  });

  it('a bearer-key reply carries Access-Control-Allow-Origin: * and exposes the generation id and rate limits', async () => {
    const reply = await fromPage('/chat/completions', { body: CHAT });
    expect(reply.status).toBe(200);
    await reply.text();
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
    expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
    const exposed = reply.headers.get('access-control-expose-headers')?.split(', ') ?? [];
    expect(exposed).toEqual(expect.arrayContaining(['x-generation-id', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'retry-after', 'x-provider-name']));
  });

  it('a streamed reply carries it too', async () => {
    const reply = await fromPage('/chat/completions', { body: { ...CHAT, stream: true } });
    expect(reply.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await reply.text();
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('x-api-key works the same way', async () => {
    const reply = await fromPage('/key', { key: null, headers: { 'x-api-key': harness.key } });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('access-control-allow-origin')).toBe('*');
  });

  it('errors carry it, so a page can read them: 401, 402, 400 and 429', async () => {
    const unauthenticated = await fromPage('/chat/completions', { body: CHAT, key: 'sk-svc-v1-nothing' });
    expect(unauthenticated.status).toBe(401);
    expect(corsHeaders(unauthenticated)['access-control-allow-origin']).toBe('*');

    const capped = await createKey(harness.gateway.store, { accountId: harness.accountId, limitUsd: '0' });
    const refused = await fromPage('/chat/completions', { body: CHAT, key: capped.key });
    expect(refused.status).toBe(402);
    expect(corsHeaders(refused)['access-control-allow-origin']).toBe('*');

    const invalid = await fromPage('/chat/completions', { body: { ...CHAT, top_p: 0 } });
    expect(invalid.status).toBe(400);
    expect(corsHeaders(invalid)['access-control-allow-origin']).toBe('*');

    const busy = await createKey(harness.gateway.store, { accountId: harness.accountId });
    let last: Response | undefined;
    for (let i = 0; i < 41; i += 1) {
      last = await fromPage('/key', { key: busy.key });
      await last.arrayBuffer();
    }
    expect(last?.status).toBe(429);
    expect(last?.headers.get('access-control-allow-origin')).toBe('*');
    expect(last?.headers.get('access-control-expose-headers')).toContain('retry-after');
  });
});

describe('the management and web scopes answer no other origin', () => {
  it('a preflight to the management routes gets no allow headers', async () => {
    for (const [path, method] of [['/api/v1/keys', 'GET'], ['/api/v1/keys', 'POST'], [`/api/v1/keys/${'a'.repeat(64)}`, 'DELETE'], ['/api/v1/audit', 'GET']] as const) {
      const reply = await preflight(path, method);
      await reply.arrayBuffer();
      expect(reply.status, path).not.toBe(204);
      expect(corsHeaders(reply), `${method} ${path}`).toEqual({});
    }
  });

  it('a management reply carries no CORS header, even asked from another origin', async () => {
    const reply = await fromPage('/keys', { key: management });
    expect(reply.status).toBe(200);
    await reply.arrayBuffer();
    expect(corsHeaders(reply)).toEqual({});
    const refused = await fromPage('/keys', { key: 'sk-svc-v1-nothing' });
    expect(refused.status).toBe(401);
    expect(corsHeaders(refused)).toEqual({});
  });

  it('the web pages answer no preflight and carry no CORS header', async () => {
    for (const path of ['/auth/login', '/dashboard']) {
      const asked = await preflight(path, 'POST');
      await asked.arrayBuffer();
      expect(corsHeaders(asked), path).toEqual({});
      const page = await fetch(`${harness.gateway.url}${path}`, { headers: { origin: ORIGIN }, redirect: 'manual' });
      await page.arrayBuffer();
      expect(corsHeaders(page), path).toEqual({});
    }
  });
});
