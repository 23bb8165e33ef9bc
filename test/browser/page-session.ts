import { CLI_CHANGE } from '../../src/accounts/audit.js';
import { createUser, type UserRole } from '../../src/accounts/users.js';
import type { Harness } from '../e2e/harness.js';

/** A person of the harness account (or `accountId`), created as the CLI does. */
export async function addPerson(harness: Harness, options: { email: string; password?: string; role?: UserRole; accountId?: string }): Promise<{ userId: string; email: string; password: string }> {
  const password = options.password ?? 'correct horse battery';
  const userId = await createUser(harness.gateway.store, {
    accountId: options.accountId ?? harness.accountId, email: options.email, password, role: options.role ?? 'owner',
  }, CLI_CHANGE);
  return { userId, email: options.email, password };
}

/** A browser without a browser: cookies kept by name, CSRF tokens read from the pages' forms. */
export class PageSession {
  readonly #cookies = new Map<string, string>();
  readonly origin: string;

  constructor(origin: string) {
    this.origin = origin;
  }

  get cookieHeader(): string {
    return [...this.#cookies.entries()].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  /** One request, redirects not followed; cookies set by the reply are kept (or dropped when cleared). */
  async fetch(path: string, init: { method?: string; form?: Record<string, string>; headers?: Record<string, string> } = {}): Promise<{ status: number; location: string | null; text: string; headers: Headers }> {
    const headers: Record<string, string> = { ...init.headers };
    if (this.#cookies.size > 0) headers.cookie = this.cookieHeader;
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const response = await fetch(new URL(path, this.origin), {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      redirect: 'manual',
      ...(init.form && { body: new URLSearchParams(init.form).toString() }),
    });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair = '', ...attributes] = cookie.split(';');
      const [name = '', value = ''] = pair.split('=');
      const expired = attributes.some((attribute) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(attribute));
      if (expired || value === '') this.#cookies.delete(name.trim());
      else this.#cookies.set(name.trim(), value);
    }
    return { status: response.status, location: response.headers.get('location'), text: await response.text(), headers: response.headers };
  }

  /** The CSRF token of a page's forms. */
  static csrfOf(html: string): string {
    const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
    if (!token) throw new Error('no CSRF token on the page');
    return token;
  }

  /** Signs in through the form; returns the reply to the form's POST. */
  async signIn(email: string, password: string, next = '/dashboard'): Promise<{ status: number; location: string | null; text: string }> {
    const page = await this.fetch(`/auth/login?next=${encodeURIComponent(next)}`);
    return this.fetch('/auth/login', { form: { _csrf: PageSession.csrfOf(page.text), email, password, next } });
  }
}

/** HTML entities of the templates back to text (enough for URLs and codes read from a page). */
export function unescapeHtml(text: string): string {
  return text.replaceAll('&amp;', '&').replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&lt;', '<').replaceAll('&gt;', '>');
}
