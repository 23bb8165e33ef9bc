import type { Page } from 'playwright-core';

/** Signs in through the form and waits for the page it returns to. */
export async function signInOnPage(page: Page, origin: string, person: { email: string; password: string }, next = '/dashboard'): Promise<void> {
  await page.goto(`${origin}/auth/login?next=${encodeURIComponent(next)}`);
  await page.getByLabel('Email').fill(person.email);
  await page.getByLabel('Password').fill(person.password);
  await Promise.all([page.waitForURL((url) => !url.pathname.startsWith('/auth/login')), page.getByRole('button', { name: 'Sign in' }).click()]);
}

/** Messages the browser logs about the page's Content Security Policy, collected as they come. */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.push(message.text());
  });
  return seen;
}
