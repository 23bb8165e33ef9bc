import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../e2e/harness.js';
import { browserPages, CHROMIUM_PRESENT } from './chromium.js';
import { addPerson } from './page-session.js';
import { signInOnPage } from './pages.js';

/** What an application does: a random verifier, and its S256 challenge. */
function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

let harness: Harness;
let owner: { email: string; password: string };
/** A loopback application (a CLI tool, say) that receives the callback. */
let loopbackApp: Server;
let loopbackUrl: string;
const newPage = browserPages();

beforeAll(async () => {
  if (!CHROMIUM_PRESENT) return;
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }] });
  owner = await addPerson(harness, { email: 'owner@example.com' });
  loopbackApp = createServer((_request, response) => response.end('<!doctype html><title>app</title><p>Back in the app</p>'));
  await new Promise<void>((resolve) => loopbackApp.listen(0, '127.0.0.1', resolve));
  loopbackUrl = `http://127.0.0.1:${(loopbackApp.address() as AddressInfo).port}/callback`;
});

afterAll(async () => {
  await harness?.close();
  await new Promise((resolve) => loopbackApp?.close(resolve));
});

/**
 * Clicks `button` and returns the address the browser is sent to at the https application (which
 * does not exist: the request is seen, not answered).
 */
async function sentTo(page: Page, button: string): Promise<URL> {
  const [request] = await Promise.all([
    page.waitForRequest((request) => request.url().startsWith('https://app.example/')),
    page.getByRole('button', { name: button }).click(),
  ]);
  return new URL(request.url());
}

function approvalUrl(query: Record<string, string>): string {
  return `${harness.gateway.url}/auth?${new URLSearchParams(query).toString()}`;
}

async function exchange(code: string, verifier: string): Promise<{ status: number; body: { key?: string; user_id?: string } }> {
  const reply = await fetch(`${harness.baseUrl}/auth/keys`, {
    method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, code_verifier: verifier, code_challenge_method: 'S256' }),
  });
  return { status: reply.status, body: (await reply.json()) as { key?: string; user_id?: string } };
}

describe.skipIf(!CHROMIUM_PRESENT)('the approval flow in chromium', () => {
  it('sign in, approve, exchange the code with the verifier, use the key; it is listed under the origin and revoked there', async () => {
    const { verifier, challenge } = pkcePair();
    const page = await newPage();
    await page.goto(approvalUrl({ callback_url: 'https://app.example/done?state=7', code_challenge: challenge, code_challenge_method: 'S256', limit: '5' }));
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByLabel('Password').fill(owner.password);
    await Promise.all([page.waitForURL(/\/auth\?/), page.getByRole('button', { name: 'Sign in' }).click()]);
    expect(await page.getByTestId('application-origin').textContent()).toBe('https://app.example');
    expect(await page.getByTestId('approval-limit').textContent()).toBe('$5');
    const back = await sentTo(page, 'Approve');
    expect(back.pathname).toBe('/done');
    expect(back.searchParams.get('state')).toBe('7');
    const code = back.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    const exchanged = await exchange(code, verifier);
    expect(exchanged.status).toBe(200);
    const key = exchanged.body.key ?? '';
    const client = new OpenAI({ baseURL: harness.baseUrl, apiKey: key, maxRetries: 0 });
    expect((await client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] })).choices.length).toBe(1);
    // a tab of its own, signed in with the same cookies: the first one's navigation to the
    // application (a name that does not resolve) may still end in an error page meanwhile
    const dashboard = await page.context().newPage();
    await dashboard.goto(`${harness.gateway.url}/dashboard`);
    const row = dashboard.getByRole('table', { name: 'Keys' }).getByRole('row').filter({ has: dashboard.getByRole('link', { name: 'https://app.example', exact: true }) });
    expect(await row.textContent()).toContain('$5');
    await row.getByRole('button', { name: 'Revoke' }).click();
    await dashboard.waitForURL(/done=revoked/);
    await expect(client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] })).rejects.toMatchObject({ status: 401 });
    expect((await exchange(code, verifier)).status).toBe(400);
  });

  it('Decline returns to the application with error=access_denied', async () => {
    const { challenge } = pkcePair();
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner, '/dashboard');
    await page.goto(approvalUrl({ callback_url: 'https://app.example/done', code_challenge: challenge, code_challenge_method: 'S256' }));
    expect(await page.getByTestId('approval-limit').textContent()).toBe('No limit');
    const back = await sentTo(page, 'Decline');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('manual mode shows the code on the page instead of leaving it, and the code works once', async () => {
    const { verifier, challenge } = pkcePair();
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner, '/dashboard');
    await page.goto(approvalUrl({ callback_url: 'https://app.example/done', code_challenge: challenge, code_challenge_method: 'S256', response_mode: 'manual' }));
    await page.getByRole('button', { name: 'Approve' }).click();
    const code = (await page.getByTestId('authorization-code').textContent()) ?? '';
    expect(new URL(page.url()).origin).toBe(harness.gateway.url);
    expect((await exchange(code, verifier)).status).toBe(200);
    expect((await exchange(code, verifier)).status).toBe(400);
  });

  it('a loopback callback keeps the person on the page with the code to copy', async () => {
    const { verifier, challenge } = pkcePair();
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner, '/dashboard');
    await page.goto(approvalUrl({ callback_url: loopbackUrl, code_challenge: challenge, code_challenge_method: 'S256' }));
    await page.getByRole('button', { name: 'Approve' }).click();
    const code = (await page.getByTestId('authorization-code').textContent()) ?? '';
    expect(new URL(page.url()).origin).toBe(harness.gateway.url);
    const exchanged = await exchange(code, verifier);
    expect(exchanged.status).toBe(200);
    expect(exchanged.body.key).toMatch(/^sk-svc-v1-/);
  });

  it('a refused callback (javascript:, plain http elsewhere) shows the reason and no Approve button', async () => {
    const { challenge } = pkcePair();
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner, '/dashboard');
    for (const callback of ['javascript:alert(document.cookie)', 'http://app.example/done']) {
      const response = await page.goto(approvalUrl({ callback_url: callback, code_challenge: challenge, code_challenge_method: 'S256' }));
      expect(response?.status()).toBe(400);
      expect(await page.getByRole('alert').textContent()).toContain('callback_url:');
      expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    }
  });
});
