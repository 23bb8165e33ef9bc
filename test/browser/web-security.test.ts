import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from '../e2e/harness.js';
import { addPerson, PageSession } from './page-session.js';

const MODELS = [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }];

let harness: Harness;
let person: { email: string; password: string };

beforeAll(async () => {
  harness = await startHarness({ models: MODELS, settings: { trustProxy: ['127.0.0.1'] } });
  person = await addPerson(harness, { email: 'lin@example.com' });
});

afterAll(async () => harness.close());

describe('the web pages\' headers and cookies', () => {
  it('pages carry a strict CSP: scripts and styles from this origin only, never unsafe-inline', async () => {
    const page = await new PageSession(harness.gateway.url).fetch('/auth/login');
    const policy = page.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("style-src 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(policy).not.toContain('unsafe-inline');
    expect(page.text).not.toMatch(/<script>|<style>| style="| on\w+="/);
  });

  it('the session cookie is HttpOnly, SameSite=Lax, Path=/, and Secure when the request came over https', async () => {
    const browser = new PageSession(harness.gateway.url);
    const form = await browser.fetch('/auth/login');
    const plain = await browser.fetch('/auth/login', { form: { _csrf: PageSession.csrfOf(form.text), email: person.email, password: person.password } });
    const cookie = plain.headers.getSetCookie().find((line) => line.startsWith('switchyard_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/);
    const proxied = new PageSession(harness.gateway.url);
    const proxiedForm = await proxied.fetch('/auth/login', { headers: { 'x-forwarded-proto': 'https' } });
    const secure = await proxied.fetch('/auth/login', {
      form: { _csrf: PageSession.csrfOf(proxiedForm.text), email: person.email, password: person.password }, headers: { 'x-forwarded-proto': 'https' },
    });
    expect(secure.headers.getSetCookie().find((line) => line.startsWith('switchyard_session='))).toMatch(/Secure/);
  });

  it('the pages answer no cross-origin request: no CORS headers, a preflight gets no allowance', async () => {
    const browser = new PageSession(harness.gateway.url);
    await browser.signIn(person.email, person.password);
    const read = await browser.fetch('/dashboard', { headers: { origin: 'https://evil.example' } });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await browser.fetch('/dashboard/keys', { method: 'OPTIONS', headers: { origin: 'https://evil.example', 'access-control-request-method': 'POST' } });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('a form posted without a CSRF token, or with another session\'s, is a 403 page and changes nothing', async () => {
    const mine = new PageSession(harness.gateway.url);
    await mine.signIn(person.email, person.password);
    const theirs = new PageSession(harness.gateway.url);
    await theirs.signIn(person.email, person.password);
    const theirToken = PageSession.csrfOf((await theirs.fetch('/dashboard')).text);
    for (const form of [{ name: 'no-token' }, { name: 'their-token', _csrf: theirToken }] as Record<string, string>[]) {
      const reply = await mine.fetch('/dashboard/keys', { form });
      expect(reply.status).toBe(403);
      expect(reply.text).toContain('Form refused');
    }
    const keys = await harness.gateway.store.db.selectFrom('api_keys').select('id').where('name', 'in', ['no-token', 'their-token']).execute();
    expect(keys).toEqual([]);
  });

  it('bad input never answers 500: unknown routes, odd ids and odd forms get pages', async () => {
    const browser = new PageSession(harness.gateway.url);
    await browser.signIn(person.email, person.password);
    const csrf = PageSession.csrfOf((await browser.fetch('/dashboard')).text);
    for (const [path, init] of [
      ['/dashboard/generations/%00', {}],
      [`/dashboard/generations/${'x'.repeat(500)}`, {}],
      ['/dashboard/keys/__proto__', {}],
      ['/dashboard/keys/constructor/disable', { form: { _csrf: csrf } }],
      ['/dashboard/keys/abc/explode', { form: { _csrf: csrf } }],
      ['/dashboard/workspaces/nope/routing', { form: { _csrf: csrf, routing: '{}' } }],
      ['/dashboard?audit_after=__proto__', {}],
      ['/auth?callback_url[]=x', {}],
    ] as const) {
      const reply = await browser.fetch(path, init);
      expect(reply.status, path).toBeLessThan(500);
    }
  });
});

describe('sessions live in the database', () => {
  it('a restart keeps people signed in: the cookie from before works after', async () => {
    const databaseUrl = `sqlite:${join(mkdtempSync(join(tmpdir(), 'switchyard-web-')), 'db.sqlite')}`;
    const first = await startHarness({ models: MODELS, databaseUrl });
    const owner = await addPerson(first, { email: 'ren@example.com' });
    const browser = new PageSession(first.gateway.url);
    expect((await browser.signIn(owner.email, owner.password)).status).toBe(303);
    await first.close();
    const second = await startHarness({ models: MODELS, databaseUrl });
    try {
      const restarted = new PageSession(second.gateway.url);
      const dashboard = await restarted.fetch('/dashboard', { headers: { cookie: browser.cookieHeader } });
      expect(dashboard.status).toBe(200);
      expect(dashboard.text).toContain('ren@example.com');
    } finally {
      await second.close();
    }
  });
});
