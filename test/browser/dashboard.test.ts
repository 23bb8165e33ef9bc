import { readFile } from 'node:fs/promises';
import OpenAI from 'openai';
import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { startHarness, type Harness } from '../e2e/harness.js';
import { browserPages, CHROMIUM_PRESENT } from './chromium.js';
import { addPerson } from './page-session.js';
import { cspViolations, signInOnPage } from './pages.js';

const CHAT = { model: 'acme/chat', messages: [{ role: 'user' as const, content: 'Hi' }] };

let harness: Harness;
let owner: { email: string; password: string };
const newPage = browserPages();

beforeAll(async () => {
  if (!CHROMIUM_PRESENT) return;
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] }] });
  owner = await addPerson(harness, { email: 'owner@example.com' });
});

afterAll(async () => {
  await harness?.close();
});

function clientWith(key: string): OpenAI {
  return new OpenAI({ baseURL: harness.baseUrl, apiKey: key, maxRetries: 0 });
}

async function status(key: string): Promise<number> {
  try {
    await clientWith(key).chat.completions.create(CHAT);
    return 200;
  } catch (error) {
    return (error as { status?: number }).status ?? 0;
  }
}

async function createKeyOnPage(page: Page, name: string, fields: { limit?: string; reset?: string; expires?: string } = {}): Promise<string> {
  await page.getByLabel('Name', { exact: true }).fill(name);
  if (fields.limit !== undefined) await page.getByLabel('Limit (USD)').fill(fields.limit);
  if (fields.reset !== undefined) await page.getByLabel('Limit reset').selectOption(fields.reset);
  if (fields.expires !== undefined) await page.getByLabel('Expires').fill(fields.expires);
  await page.getByRole('button', { name: 'Create key' }).click();
  return (await page.getByTestId('new-key').textContent())?.trim() ?? '';
}

function keyRow(page: Page, name: string) {
  return page.getByRole('table', { name: 'Keys' }).getByRole('row').filter({ has: page.getByRole('link', { name, exact: true }) });
}

describe.skipIf(!CHROMIUM_PRESENT)('the dashboard in chromium', () => {
  it('signing in shows the balance in USD, the total credits and the account\'s keys, with no CSP violation', async () => {
    const page = await newPage();
    const violations = cspViolations(page);
    await signInOnPage(page, harness.gateway.url, owner);
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await page.getByTestId('balance').textContent()).toMatch(/^\$\d/);
    expect(await page.getByTestId('total-credits').textContent()).toBe('$10');
    await expect.poll(() => keyRow(page, 'Default').count()).toBe(1);
    await page.waitForSelector('[data-testid="spend-chart"] .uplot, [data-testid="spend-chart"] .empty');
    expect(violations).toEqual([]);
  });

  it('a key created on the page is shown once, works with the openai client, and its generation and spend appear', async () => {
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner);
    const key = await createKeyOnPage(page, 'teammate', { limit: '20', reset: 'weekly' });
    expect(key).toMatch(/^sk-svc-v1-[0-9a-f]{64}$/);
    const reply = await clientWith(key).chat.completions.create(CHAT);
    await page.goto(`${harness.gateway.url}/dashboard`);
    expect(await page.getByTestId('new-key').count()).toBe(0);
    await expect.poll(() => keyRow(page, 'teammate').textContent()).toContain('$20 weekly');
    const generations = page.getByRole('table', { name: 'Recent generations' });
    const row = generations.getByRole('row').filter({ hasText: reply.id });
    expect(await row.count()).toBe(1);
    expect(await row.textContent()).toMatch(/\$0\.\d+/);
    await page.waitForSelector('[data-testid="spend-chart"] .uplot');
    expect(await page.getByTestId('spend-chart').textContent()).toContain('acme/chat');
    await row.getByRole('link').click();
    expect(await page.getByTestId('generation-id').textContent()).toBe(reply.id);
    expect(await page.getByTestId('generation-cost').textContent()).toMatch(/^\$0\.\d+/);
  });

  it('lists the account\'s batches with their counts and results, and its stored files with size and expiry; the results download', async () => {
    const submitted = await fetch(`${harness.baseUrl}/batches`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: '/v1/chat/completions', model: 'acme/chat', requests: [{ custom_id: 'first', body: { messages: CHAT.messages } }, { custom_id: 'second', body: { messages: CHAT.messages } }] }),
    });
    expect(submitted.status).toBe(202);
    const { id } = await submitted.json() as { id: string };
    await expect.poll(async () => {
      const batch = await fetch(`${harness.baseUrl}/batches/${id}`, { headers: { authorization: `Bearer ${harness.key}` } }).then((response) => response.json()) as { status: string };
      return batch.status;
    }, { timeout: 15_000 }).toBe('completed');
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner);
    const row = page.getByRole('table', { name: 'Batches' }).getByRole('row').filter({ hasText: id });
    expect(await row.textContent()).toContain('completed');
    expect(await row.textContent()).toContain('2 completed, 0 failed of 2');
    const files = page.getByRole('table', { name: 'Files' });
    const fileRow = files.getByRole('row').filter({ hasText: `${id}_results.jsonl` });
    expect(await fileRow.textContent()).toContain('batch_output');
    expect(await fileRow.textContent()).toMatch(/\d+(\.\d)? (B|KiB)/);
    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('link', { name: 'results (JSONL)' }).click()]);
    const lines = (await readFile(await download.path(), 'utf8')).trim().split('\n').map((line) => JSON.parse(line) as { custom_id: string });
    expect(lines.map((line) => line.custom_id)).toEqual(['first', 'second']);
    await page.goto(`${harness.gateway.url}/dashboard/files/file-doesnotexist`);
    expect(await page.locator('h1').textContent()).toMatch(/not found/i);
  });

  it('disable, enable and revoke take effect at once: 401 while disabled, served when enabled, 401 for good once revoked', async () => {
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner);
    const key = await createKeyOnPage(page, 'switching');
    expect(await status(key)).toBe(200);
    await keyRow(page, 'switching').getByRole('button', { name: 'Disable' }).click();
    await page.waitForURL(/done=disabled/);
    expect(await keyRow(page, 'switching').textContent()).toContain('disabled');
    expect(await status(key)).toBe(401);
    await keyRow(page, 'switching').getByRole('button', { name: 'Enable' }).click();
    await page.waitForURL(/done=enabled/);
    expect(await status(key)).toBe(200);
    await keyRow(page, 'switching').getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(/done=revoked/);
    expect(await keyRow(page, 'switching').count()).toBe(0);
    expect(await status(key)).toBe(401);
  });

  it('a key\'s limit is edited on its page, and GET /key reads the new limit', async () => {
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner);
    const key = await createKeyOnPage(page, 'limited');
    await keyRow(page, 'limited').getByRole('link', { name: 'limited' }).click();
    await page.getByLabel('Limit (USD)').fill('abc');
    await page.getByRole('button', { name: 'Save key' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('Limit (USD):');
    await page.getByLabel('Limit (USD)').fill('7.25');
    await page.getByLabel('Limit reset').selectOption('daily');
    await page.getByRole('button', { name: 'Save key' }).click();
    await page.waitForURL(/done=updated/);
    const inspected = await fetch(`${harness.baseUrl}/key`, { headers: { authorization: `Bearer ${key}` } }).then((response) => response.json()) as { data: { limit: number; limit_reset: string } };
    expect(inspected.data).toMatchObject({ limit: 7.25, limit_reset: 'daily' });
  });

  it('a create form input at fault is refused with a message naming the field, and nothing is created', async () => {
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner);
    const before = await page.getByRole('table', { name: 'Keys' }).getByRole('row').count();
    for (const [fields, field] of [
      [{ limit: 'ten' }, 'Limit (USD):'],
      [{ reset: 'weekly' }, 'Limit reset:'],
      [{ expires: '2001-01-01' }, 'Expires:'],
      [{ expires: 'soon' }, 'Expires:'],
    ] as const) {
      await page.getByLabel('Name', { exact: true }).fill('refused');
      await page.getByLabel('Limit (USD)').fill('limit' in fields ? fields.limit : '');
      await page.getByLabel('Limit reset').selectOption('reset' in fields ? fields.reset : '');
      await page.getByLabel('Expires').fill('expires' in fields ? fields.expires : '');
      await page.getByRole('button', { name: 'Create key' }).click();
      expect(await page.getByRole('alert').textContent()).toContain(field);
    }
    expect(await page.getByRole('table', { name: 'Keys' }).getByRole('row').count()).toBe(before);
  });

  it('routing defaults are edited as JSON, refused with a message naming the field when invalid', async () => {
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner);
    const routing = page.getByLabel('Routing defaults of Default (JSON)');
    await routing.fill('{"sort": ');
    await page.getByRole('button', { name: 'Save routing defaults' }).click();
    expect(await page.getByRole('alert').textContent()).toContain('Routing defaults: not valid JSON');
    await page.goto(`${harness.gateway.url}/dashboard`);
    await routing.fill('{"sort": "fastest"}');
    await page.getByRole('button', { name: 'Save routing defaults' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/Routing defaults: provider/);
    await page.goto(`${harness.gateway.url}/dashboard`);
    await routing.fill('{"sort": "price"}');
    await page.getByRole('button', { name: 'Save routing defaults' }).click();
    await page.waitForURL(/done=routing/);
    expect(await routing.inputValue()).toContain('"price"');
    expect(await page.getByRole('table', { name: 'Audit trail' }).getByRole('row').filter({ hasText: 'routing.set' }).first().textContent()).toContain(owner.email);
  });

  it('a tampered CSRF token is refused with a 403 page, and nothing changes', async () => {
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner);
    await page.locator('form[action="/dashboard/keys"] input[name="_csrf"]').evaluate((input: HTMLInputElement) => {
      input.value = `${input.value.slice(0, -2)}xx`;
    });
    await page.getByLabel('Name', { exact: true }).fill('forged');
    const [response] = await Promise.all([page.waitForResponse((reply) => reply.url().endsWith('/dashboard/keys')), page.getByRole('button', { name: 'Create key' }).click()]);
    expect(response.status()).toBe(403);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Form refused');
    const keys = await harness.gateway.store.db.selectFrom('api_keys').select('id').where('name', '=', 'forged').execute();
    expect(keys).toEqual([]);
  });

  it('without JavaScript the dashboard signs in, creates, disables and revokes keys', async () => {
    const page = await newPage({ javaScriptEnabled: false });
    await signInOnPage(page, harness.gateway.url, owner);
    expect(await page.getByTestId('balance').textContent()).toMatch(/^\$/);
    const key = await createKeyOnPage(page, 'no-script');
    expect(key).toMatch(/^sk-svc-v1-/);
    await keyRow(page, 'no-script').getByRole('button', { name: 'Disable' }).click();
    await page.waitForURL(/done=disabled/);
    expect(await status(key)).toBe(401);
    await keyRow(page, 'no-script').getByRole('button', { name: 'Revoke' }).click();
    await page.waitForURL(/done=revoked/);
    expect(await keyRow(page, 'no-script').count()).toBe(0);
  });

  it('a second account sees nothing of the first, and the first\'s ids answer 404', async () => {
    const generation = await harness.client.chat.completions.create(CHAT);
    const firstKey = await harness.gateway.store.db.selectFrom('api_keys').select(['hash']).where('account_id', '=', harness.accountId).where('name', '=', 'Default').executeTakeFirstOrThrow();
    const other = await createAccount(harness.gateway.store, { name: 'Other team', creditsUsd: '3' });
    const stranger = await addPerson(harness, { email: 'stranger@example.com', accountId: other.accountId });
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, stranger);
    expect(await page.getByTestId('balance').textContent()).toBe('$3');
    expect(await page.content()).not.toContain('teammate');
    expect(await page.getByRole('table', { name: 'Recent generations' }).getByRole('row').filter({ hasText: generation.id }).count()).toBe(0);
    const record = await page.goto(`${harness.gateway.url}/dashboard/generations/${generation.id}`);
    expect(record?.status()).toBe(404);
    const keyPage = await page.goto(`${harness.gateway.url}/dashboard/keys/${firstKey.hash}`);
    expect(keyPage?.status()).toBe(404);
    const firstFile = await harness.client.files.create({ file: new File(['theirs'], 'theirs.txt'), purpose: 'user_data' });
    const filePage = await page.goto(`${harness.gateway.url}/dashboard/files/${firstFile.id}`);
    expect(filePage?.status()).toBe(404);
    await page.goto(`${harness.gateway.url}/dashboard`);
    expect(await page.getByRole('table', { name: 'Files' }).textContent()).not.toContain(firstFile.id);
    const csrf = await page.locator('form[action="/dashboard/keys"] input[name="_csrf"]').inputValue();
    const disable = await page.request.post(`${harness.gateway.url}/dashboard/keys/${firstKey.hash}/disable`, { form: { _csrf: csrf }, maxRedirects: 0 });
    expect(disable.status()).toBe(404);
    expect(await status(harness.key)).toBe(200);
  });

  it('a member sees the keys but has no forms, and a member\'s change is refused', async () => {
    const member = await addPerson(harness, { email: 'member@example.com', role: 'member' });
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, member);
    await expect.poll(() => keyRow(page, 'Default').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Disable' }).count()).toBe(0);
    const csrf = await page.locator('form[action="/auth/logout"] input[name="_csrf"]').inputValue();
    const created = await page.request.post(`${harness.gateway.url}/dashboard/keys`, { form: { _csrf: csrf, name: 'by-member' }, maxRedirects: 0 });
    expect(created.status()).toBe(403);
    expect(await harness.gateway.store.db.selectFrom('api_keys').select('id').where('name', '=', 'by-member').execute()).toEqual([]);
  });

  it('Sign out ends the session: the dashboard sends the browser to sign in again', async () => {
    const page = await newPage();
    await signInOnPage(page, harness.gateway.url, owner);
    const [session] = (await page.context().cookies()).filter((cookie) => cookie.name === 'switchyard_session');
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/auth\/login/);
    await page.context().addCookies([{ ...session!, name: 'switchyard_session' }]);
    await page.goto(`${harness.gateway.url}/dashboard`);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
  });
});
