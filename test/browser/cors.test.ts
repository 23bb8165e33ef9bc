import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/accounts/accounts.js';
import { startHarness, type Harness } from '../e2e/harness.js';
import { CHROMIUM_PRESENT, launchChromium } from './chromium.js';

/**
 * A browser app on another origin calling the API with a key it holds: the key-scoped routes answer
 * it (preflight, then the reply and the headers it exposes), the management routes do not.
 */
const MODEL = 'acme/chat';

let harness: Harness;
let browser: Browser;
let app: Server;
let appOrigin: string;
let management: string;
let page: Page;

beforeAll(async () => {
  if (!CHROMIUM_PRESENT) return;
  harness = await startHarness({ models: [{ id: MODEL, endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] }] });
  management = (await createKey(harness.gateway.store, { accountId: harness.accountId, management: true })).key;
  app = createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end('<!doctype html><title>Chat app</title><p>A browser app of another origin</p>');
  });
  await new Promise<void>((resolve) => app.listen(0, '127.0.0.1', resolve));
  appOrigin = `http://127.0.0.1:${(app.address() as AddressInfo).port}`;
  browser = await launchChromium();
  page = await (await browser.newContext()).newPage();
  await page.goto(`${appOrigin}/`);
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (app ? app.close(resolve) : resolve(undefined)));
  await harness?.close();
});

interface PageFetch {
  ok: boolean;
  status?: number;
  headers?: Record<string, string | null>;
  body?: unknown;
  error?: string;
}

/** A `fetch` made by the page itself, so the browser applies its cross-origin rules. */
function fetchFromPage(url: string, init: { method?: string; headers?: Record<string, string>; body?: string }): Promise<PageFetch> {
  return page.evaluate(async ({ url: target, init: options }) => {
    try {
      const response = await fetch(target, options);
      const read = ['x-generation-id', 'x-ratelimit-remaining', 'x-provider-name', 'content-type'];
      return { ok: true, status: response.status, headers: Object.fromEntries(read.map((name) => [name, response.headers.get(name)])), body: await response.json() as unknown };
    } catch (error) {
      return { ok: false, error: String(error) };
    }
  }, { url, init });
}

describe.skipIf(!CHROMIUM_PRESENT)('a page of another origin holding a key', () => {
  it('is served: its fetch to /chat/completions with a bearer key succeeds and reads X-Generation-Id', async () => {
    expect(new URL(appOrigin).origin).not.toBe(new URL(harness.baseUrl).origin);
    const result = await fetchFromPage(`${harness.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json', 'x-title': 'Chat app' },
      body: JSON.stringify({ model: MODEL, messages: [{ role: 'user', content: 'Hello' }] }),
    });
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(200);
    expect(result.headers?.['x-generation-id']).toMatch(/^gen-/);
    expect(result.headers?.['x-ratelimit-remaining']).toMatch(/^\d+$/);
    expect(result.headers?.['x-provider-name']).toBe('Sim A');
    expect(result.body).toMatchObject({ model: MODEL, choices: [{ message: { role: 'assistant' } }] });
  });

  it('can read a refusal: a wrong key answers a readable 401 in the envelope', async () => {
    const result = await fetchFromPage(`${harness.baseUrl}/key`, { headers: { authorization: 'Bearer sk-svc-v1-nothing' } });
    expect(result.status).toBe(401);
    expect(result.body).toEqual({ error: { code: 401, message: 'Missing or invalid API key', metadata: { error_type: 'authentication' } } });
  });

  it('is blocked by the browser on /keys, even with a management key', async () => {
    const result = await fetchFromPage(`${harness.baseUrl}/keys`, { headers: { authorization: `Bearer ${management}` } });
    expect(result.ok).toBe(false);
    expect(result.error).toMatch(/TypeError|Failed to fetch/);
  });
});
