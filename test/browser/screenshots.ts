/**
 * Screenshots of every web page at 1280×800 into docs/screenshots/ (`npm run screenshots`): a
 * gateway with a demo account, a few keys and generations, driven through chromium.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { createKey } from '../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../src/accounts/audit.js';
import { SIGN_IN_THROTTLE } from '../../src/accounts/sign-in-throttle.js';
import { setWorkspaceRoutingDefaults } from '../../src/accounts/workspace-routing.js';
import { startHarness } from '../e2e/harness.js';
import { launchChromium } from './chromium.js';
import { addPerson } from './page-session.js';
import { signInOnPage } from './pages.js';

const OUT = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const VIEWPORT = { width: 1280, height: 800 };

const harness = await startHarness({
  credits: '25',
  models: [
    { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=40' }] },
    { id: 'acme/thinker', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=120', pricing: { prompt: '0.000003', completion: '0.000015' } }] },
  ],
});
const browser = await launchChromium();
try {
  await mkdir(OUT, { recursive: true });
  const store = harness.gateway.store;
  await store.write((tx) => tx.updateTable('accounts').set({ name: 'Acme Research' }).where('id', '=', harness.accountId).execute());
  const owner = await addPerson(harness, { email: 'ada@example.com' });
  const teammate = await createKey(store, { accountId: harness.accountId, name: 'teammate laptop', limitUsd: '20', limitReset: 'weekly' }, CLI_CHANGE);
  await createKey(store, { accountId: harness.accountId, name: 'nightly evals', limitUsd: '5', limitReset: 'daily', expiresAt: new Date(Date.now() + 30 * 86_400_000) }, CLI_CHANGE);
  await setWorkspaceRoutingDefaults(store, harness.workspaceId, { sort: 'price', data_collection: 'deny' }, CLI_CHANGE);
  for (const [model, count] of [['acme/chat', 4], ['acme/thinker', 3]] as const) {
    for (let i = 0; i < count; i += 1) await harness.client.chat.completions.create({ model, messages: [{ role: 'user', content: `Question ${i}` }] });
  }
  await harness.client.files.create({ file: new File(['{"prompt":"a"}\n{"prompt":"b"}\n'], 'eval-prompts.jsonl'), purpose: 'user_data' });
  const batch = await fetch(`${harness.baseUrl}/batches`, {
    method: 'POST',
    headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ endpoint: '/v1/chat/completions', model: 'acme/chat', requests: ['a', 'b', 'c'].map((id) => ({ custom_id: id, body: { messages: [{ role: 'user', content: id }] } })) }),
  }).then((response) => response.json()) as { id: string };
  for (let status = ''; status !== 'completed'; await new Promise((resolve) => setTimeout(resolve, 100))) {
    status = (await fetch(`${harness.baseUrl}/batches/${batch.id}`, { headers: { authorization: `Bearer ${harness.key}` } }).then((response) => response.json()) as { status: string }).status;
  }
  const context = await browser.newContext({ viewport: VIEWPORT });
  const page = await context.newPage();
  const shoot = (name: string, options: { fullPage?: boolean } = {}) => page.screenshot({ path: `${OUT}${name}.png`, ...options });

  await page.goto(`${harness.gateway.url}/auth/login`);
  await shoot('login');

  await signInOnPage(page, harness.gateway.url, owner);
  await page.getByLabel('Name', { exact: true }).fill('ci runner');
  await page.getByLabel('Limit (USD)').fill('10');
  await page.getByLabel('Limit reset').selectOption('monthly');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.waitForSelector('[data-testid="spend-chart"] .uplot');
  await shoot('dashboard');
  await shoot('dashboard-full', { fullPage: true });
  await page.getByRole('table', { name: 'Batches' }).scrollIntoViewIfNeeded();
  await shoot('dashboard-batches');

  await page.getByRole('table', { name: 'Recent generations' }).getByRole('link').first().click();
  await shoot('generation');

  const verifier = randomBytes(48).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  const approval = (query: Record<string, string>) => `${harness.gateway.url}/auth?${new URLSearchParams({ code_challenge: challenge, code_challenge_method: 'S256', ...query }).toString()}`;
  await page.goto(approval({ callback_url: 'https://chat.example/oauth/callback', limit: '5' }));
  await shoot('approval');
  await page.goto(approval({ callback_url: 'http://localhost:3000/callback', limit: '5' }));
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.getByTestId('authorization-code').waitFor();
  await shoot('approval-code');
  await page.goto(approval({ callback_url: 'javascript:alert(1)' }));
  await shoot('approval-refused');

  await lockOut(page, harness.gateway.url);
  await shoot('lock-out');
  await context.close();
  console.log(`screenshots written to ${OUT} (teammate key ${teammate.hash.slice(0, 8)}…)`);
} finally {
  await browser.close();
  await harness.close();
}

async function lockOut(page: Page, origin: string): Promise<void> {
  await page.context().clearCookies();
  for (let i = 0; i < SIGN_IN_THROTTLE.emailFailures; i += 1) {
    await page.goto(`${origin}/auth/login`);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill(`not it ${i}`);
    await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
  }
}
