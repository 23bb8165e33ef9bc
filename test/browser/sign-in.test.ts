import type { Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SIGN_IN_THROTTLE } from '../../src/accounts/sign-in-throttle.js';
import { SIGN_IN_REFUSAL } from '../../src/web/sign-in-pages.js';
import { startHarness, type Harness } from '../e2e/harness.js';
import { browserPages, CHROMIUM_PRESENT } from './chromium.js';
import { addPerson } from './page-session.js';

let harness: Harness;
let person: { email: string; password: string };
const newPage = browserPages();

beforeAll(async () => {
  if (!CHROMIUM_PRESENT) return;
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }] });
  person = await addPerson(harness, { email: 'grace@example.com' });
});

afterAll(async () => {
  await harness?.close();
});

async function attempt(page: Page, email: string, password: string): Promise<string> {
  await page.goto(`${harness.gateway.url}/auth/login`);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in' }).click()]);
  const alert = page.getByRole('alert');
  return (await alert.count()) > 0 ? ((await alert.textContent()) ?? '') : '';
}

describe.skipIf(!CHROMIUM_PRESENT)('signing in, in chromium', () => {
  it('a wrong password and an unknown email get the same message', async () => {
    const page = await newPage();
    expect(await attempt(page, person.email, 'not the password')).toBe(SIGN_IN_REFUSAL);
    expect(await attempt(page, 'nobody@example.com', 'not the password')).toBe(SIGN_IN_REFUSAL);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
  });

  it('a next address off this site is ignored: signing in lands on the dashboard', async () => {
    const page = await newPage();
    for (const next of ['https://evil.example/', '//evil.example/x', '/\\evil.example']) {
      await page.goto(`${harness.gateway.url}/auth/login?next=${encodeURIComponent(next)}`);
      await page.context().clearCookies();
      await page.goto(`${harness.gateway.url}/auth/login?next=${encodeURIComponent(next)}`);
      await page.getByLabel('Email').fill(person.email);
      await page.getByLabel('Password').fill(person.password);
      await Promise.all([page.waitForURL(/\/dashboard/), page.getByRole('button', { name: 'Sign in' }).click()]);
      expect(new URL(page.url()).origin).toBe(harness.gateway.url);
    }
  });

  it(`after ${SIGN_IN_THROTTLE.emailFailures} failures the email is locked out with a message naming when to retry, even with the right password`, async () => {
    const page = await newPage();
    const locked = await addPerson(harness, { email: 'locked@example.com' });
    const messages: string[] = [];
    for (let i = 0; i < SIGN_IN_THROTTLE.emailFailures; i += 1) messages.push(await attempt(page, locked.email, `wrong ${i}`));
    expect(messages.slice(0, -1)).toEqual(Array(SIGN_IN_THROTTLE.emailFailures - 1).fill(SIGN_IN_REFUSAL));
    expect(messages.at(-1)).toMatch(/Too many failed sign-ins.*until \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
    expect(await attempt(page, locked.email, locked.password)).toMatch(/Too many failed sign-ins/);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    expect(await attempt(page, person.email, person.password)).toBe('');
    expect(new URL(page.url()).pathname).toBe('/dashboard');
  });
});
