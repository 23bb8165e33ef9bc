import { OpenRouter } from '@openrouter/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/accounts/accounts.js';
import { readAudit } from '../../src/accounts/audit.js';
import { parseUsd } from '../../src/billing/money.js';
import { s256Challenge } from '../../src/accounts/auth-codes.js';
import { CODE_REFUSAL } from '../../src/http/routes/auth-keys.js';
import { addPerson, PageSession, unescapeHtml } from '../browser/page-session.js';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const VERIFIER = 'k'.repeat(30) + '-._~' + 'Zz09'.repeat(5);

let harness: Harness;
let sdk: OpenRouter;
let owner: { userId: string; email: string; password: string };
let browser: PageSession;

beforeAll(async () => {
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }] });
  sdk = new OpenRouter({ serverURL: harness.baseUrl, retryConfig: { strategy: 'none' } });
  owner = await addPerson(harness, { email: 'owner@example.com' });
  browser = new PageSession(harness.gateway.url);
  expect((await browser.signIn(owner.email, owner.password)).status).toBe(303);
});

afterAll(async () => harness.close());

/** Approves an approval URL on the page as the signed-in owner; returns the reply to Approve. */
async function approve(url: string, decision: 'approve' | 'decline' = 'approve'): Promise<{ status: number; location: string | null; text: string }> {
  const target = new URL(url);
  const page = await browser.fetch(`${target.pathname}${target.search}`);
  expect(page.status).toBe(200);
  const fields = Object.fromEntries(target.searchParams.entries());
  return browser.fetch('/auth', { form: { ...fields, _csrf: PageSession.csrfOf(page.text), decision } });
}

async function issuedCode(callbackUrl: string, options: { limit?: number; verifier?: string } = {}): Promise<string> {
  const url = await sdk.oAuth.createAuthorizationUrl({
    callbackUrl, codeChallenge: s256Challenge(options.verifier ?? VERIFIER), codeChallengeMethod: 'S256', ...(options.limit !== undefined && { limit: options.limit }),
  });
  const reply = await approve(url);
  expect(reply.status).toBe(302);
  const code = new URL(reply.location ?? '').searchParams.get('code');
  if (!code) throw new Error('no code');
  return code;
}

async function exchange(body: unknown): Promise<{ status: number; json: unknown }> {
  const reply = await send(harness, { path: '/auth/keys', body, key: null });
  return { status: reply.status, json: reply.json };
}

function expectCodeRefusal(reply: { status: number; json: unknown }): void {
  expect(reply.status).toBe(400);
  expect((reply.json as ErrorEnvelope).error.message).toBe(CODE_REFUSAL);
}

describe('the approval flow with @openrouter/sdk', () => {
  it('createAuthorizationUrl builds the approval page\'s address, and the exchange gives a key carrying the limit, named after the origin', async () => {
    const { codeChallenge, codeVerifier } = await sdk.oAuth.createSHA256CodeChallenge();
    const url = await sdk.oAuth.createAuthorizationUrl({ callbackUrl: 'https://chat.example/oauth/done?state=42', codeChallenge, codeChallengeMethod: 'S256', limit: 5 });
    expect(url.startsWith(`${harness.gateway.url}/auth?`)).toBe(true);
    const page = await browser.fetch(new URL(url).pathname + new URL(url).search);
    expect(page.text).toContain('https://chat.example');
    expect(page.text).toContain('$5');
    const reply = await approve(url);
    expect(reply.status).toBe(302);
    const back = new URL(reply.location ?? '');
    expect(back.origin + back.pathname).toBe('https://chat.example/oauth/done');
    expect(back.searchParams.get('state')).toBe('42');
    const code = back.searchParams.get('code') ?? '';
    const result = await sdk.oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code, codeVerifier, codeChallengeMethod: 'S256' } } as never);
    expect(result.userId).toBe(owner.userId);
    const inspected = await send(harness, { path: '/key', key: result.key });
    expect(inspected.status).toBe(200);
    expect((inspected.json as { data: { name: string; limit: number } }).data).toMatchObject({ name: 'https://chat.example', limit: 5 });
    const row = await harness.gateway.store.db.selectFrom('api_keys').select(['origin', 'creator_user_id']).where('name', '=', 'https://chat.example').executeTakeFirstOrThrow();
    expect(row).toEqual({ origin: 'https://chat.example', creator_user_id: owner.userId });
  });

  it('the key\'s creation is audited as the approving person, through the approval, from the caller\'s address', async () => {
    await exchange({ code: await issuedCode('https://audited.example/cb'), code_verifier: VERIFIER, code_challenge_method: 'S256' });
    const { events } = await readAudit(harness.gateway.store.db, harness.accountId, { limit: 5 });
    const created = events.find((event) => event.action === 'key.create' && (event.after as { origin?: string }).origin === 'https://audited.example');
    expect(created).toMatchObject({ actor: { kind: 'user', id: owner.userId }, via: 'approval', address: '127.0.0.1' });
  });
});

describe('a code is exchanged once, with its verifier, within ten minutes', () => {
  it('a second use gets the one refusal', async () => {
    const code = await issuedCode('https://twice.example/cb');
    expect((await exchange({ code, code_verifier: VERIFIER, code_challenge_method: 'S256' })).status).toBe(200);
    expectCodeRefusal(await exchange({ code, code_verifier: VERIFIER, code_challenge_method: 'S256' }));
  });

  it('two concurrent exchanges of one code give exactly one key', async () => {
    const code = await issuedCode('https://race.example/cb');
    const replies = await Promise.all([1, 2, 3].map(() => exchange({ code, code_verifier: VERIFIER, code_challenge_method: 'S256' })));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(1);
    for (const reply of replies.filter((reply) => reply.status !== 200)) expectCodeRefusal(reply);
    const keys = await harness.gateway.store.db.selectFrom('api_keys').select('id').where('origin', '=', 'https://race.example').execute();
    expect(keys).toHaveLength(1);
  });

  it('an unknown code, an expired code and a verifier of another challenge get the same refusal', async () => {
    expectCodeRefusal(await exchange({ code: 'no-such-code', code_verifier: VERIFIER }));
    const wrongVerifier = await issuedCode('https://wrong.example/cb');
    expectCodeRefusal(await exchange({ code: wrongVerifier, code_verifier: `${VERIFIER}x`, code_challenge_method: 'S256' }));
    const expired = await issuedCode('https://late.example/cb');
    await harness.gateway.store.write((tx) => tx.updateTable('auth_codes').set({ expires_at: Date.now() - 1 }).where('callback_origin', '=', 'https://late.example').execute());
    expectCodeRefusal(await exchange({ code: expired, code_verifier: VERIFIER, code_challenge_method: 'S256' }));
  });

  it.each([
    ['too short', 'a'.repeat(42)],
    ['too long', 'a'.repeat(129)],
    ['outside the character set', `${'a'.repeat(50)}/`],
  ])('a verifier %s is a 400 naming code_verifier', async (_name, verifier) => {
    const reply = await exchange({ code: 'anything', code_verifier: verifier, code_challenge_method: 'S256' });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.metadata.field).toBe('code_verifier');
  });

  it('a method other than S256 is a 400 naming code_challenge_method', async () => {
    const reply = await exchange({ code: 'anything', code_verifier: VERIFIER, code_challenge_method: 'plain' });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.metadata.field).toBe('code_challenge_method');
  });

  it('a missing code is a 400 naming code', async () => {
    const reply = await exchange({ code_verifier: VERIFIER });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^code/);
  });
});

describe('a browser app exchanges its code from its own page', () => {
  it('POST /auth/keys answers preflights and carries Access-Control-Allow-Origin, never credentials, even on a refusal', async () => {
    const preflight = await fetch(`${harness.baseUrl}/auth/keys`, {
      method: 'OPTIONS',
      headers: { origin: 'https://chat.example', 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type');
    const code = await issuedCode('https://chat.example/cb');
    const exchanged = await send(harness, { path: '/auth/keys', key: null, headers: { origin: 'https://chat.example' }, body: { code, code_verifier: VERIFIER, code_challenge_method: 'S256' } });
    expect(exchanged.status).toBe(200);
    const refused = await send(harness, { path: '/auth/keys', key: null, headers: { origin: 'https://chat.example' }, body: { code, code_verifier: VERIFIER, code_challenge_method: 'S256' } });
    expect(refused.status).toBe(400);
    for (const reply of [exchanged, refused]) {
      expect(reply.headers.get('access-control-allow-origin')).toBe('*');
      expect(reply.headers.get('access-control-allow-credentials')).toBeNull();
    }
  });
});

describe('the approval page refuses what it cannot approve, and issues nothing', () => {
  const challenge = s256Challenge(VERIFIER);
  it.each([
    ['a javascript: callback', { callback_url: 'javascript:alert(1)', code_challenge: challenge, code_challenge_method: 'S256' }, 'callback_url'],
    ['plain http to another machine', { callback_url: 'http://evil.example/cb', code_challenge: challenge, code_challenge_method: 'S256' }, 'callback_url'],
    ['a protocol-relative callback', { callback_url: '//evil.example/cb', code_challenge: challenge, code_challenge_method: 'S256' }, 'callback_url'],
    ['the plain method', { callback_url: 'https://app.example/cb', code_challenge: challenge, code_challenge_method: 'plain' }, 'code_challenge_method'],
    ['no method', { callback_url: 'https://app.example/cb', code_challenge: challenge }, 'code_challenge_method'],
    ['a limit above the largest spend limit', { callback_url: 'https://app.example/cb', code_challenge: challenge, code_challenge_method: 'S256', limit: '1000000000.01' }, 'limit'],
    ['a limit past 10^-24 USD', { callback_url: 'https://app.example/cb', code_challenge: challenge, code_challenge_method: 'S256', limit: '0.0000000000000000000000001' }, 'limit'],
    ['a negative limit', { callback_url: 'https://app.example/cb', code_challenge: challenge, code_challenge_method: 'S256', limit: '-5' }, 'limit'],
  ])('%s is refused on the page, naming the parameter', async (_name, query, field) => {
    const before = await harness.gateway.store.db.selectFrom('auth_codes').select('code_hash').execute();
    const page = await browser.fetch(`/auth?${new URLSearchParams(query).toString()}`);
    expect(page.status).toBe(400);
    expect(page.text).toContain(`${field}:`);
    expect(page.text).not.toContain('>Approve<');
    const posted = await browser.fetch('/auth', { form: { ...query, _csrf: PageSession.csrfOf(page.text), decision: 'approve' } });
    expect(posted.status).toBe(400);
    expect(posted.location).toBeNull();
    expect(await harness.gateway.store.db.selectFrom('auth_codes').select('code_hash').execute()).toHaveLength(before.length);
  });

  it('a decision neither approve nor decline is refused on the page: no code, no redirect', async () => {
    const query = { callback_url: 'https://undecided.example/cb', code_challenge: s256Challenge(VERIFIER), code_challenge_method: 'S256' };
    const page = await browser.fetch(`/auth?${new URLSearchParams(query).toString()}`);
    const posted = await browser.fetch('/auth', { form: { ...query, _csrf: PageSession.csrfOf(page.text), decision: 'maybe' } });
    expect(posted.status).toBe(400);
    expect(posted.location).toBeNull();
    expect(posted.text).toContain('decision:');
  });

  it('a limit the SDK renders in exponent form (limit: 0.0000001 becomes "1e-7") is read exactly', async () => {
    const code = await issuedCode('https://tiny.example/cb', { limit: 0.0000001 });
    const exchanged = await exchange({ code, code_verifier: VERIFIER, code_challenge_method: 'S256' });
    expect(exchanged.status).toBe(200);
    const key = await harness.gateway.store.db.selectFrom('api_keys').select('limit_units').where('origin', '=', 'https://tiny.example').executeTakeFirstOrThrow();
    expect(key.limit_units).toBe(parseUsd('0.0000001').toString());
  });

  it('decline returns to the callback with error=access_denied and no code', async () => {
    const url = await sdk.oAuth.createAuthorizationUrl({ callbackUrl: 'https://declined.example/cb', codeChallenge: s256Challenge(VERIFIER), codeChallengeMethod: 'S256' });
    const reply = await approve(url, 'decline');
    expect(reply.status).toBe(302);
    const back = new URL(reply.location ?? '');
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.has('code')).toBe(false);
  });

  it('a loopback callback keeps the person on the page with the code to copy', async () => {
    const url = await sdk.oAuth.createAuthorizationUrl({ callbackUrl: 'http://127.0.0.1:4567/cb', codeChallenge: s256Challenge(VERIFIER), codeChallengeMethod: 'S256' });
    const reply = await approve(url);
    expect(reply.status).toBe(200);
    const code = unescapeHtml(/data-testid="authorization-code">([^<]+)</.exec(reply.text)?.[1] ?? '');
    const result = await exchange({ code, code_verifier: VERIFIER, code_challenge_method: 'S256' });
    expect(result.status).toBe(200);
  });

  it('a signed-out visitor goes through the sign-in page and back', async () => {
    const url = await sdk.oAuth.createAuthorizationUrl({ callbackUrl: 'https://later.example/cb', codeChallenge: s256Challenge(VERIFIER), codeChallengeMethod: 'S256' });
    const visitor = new PageSession(harness.gateway.url);
    const asked = new URL(url);
    const first = await visitor.fetch(asked.pathname + asked.search);
    expect(first.status).toBe(303);
    const next = new URL(first.location ?? '', harness.gateway.url).searchParams.get('next') ?? '';
    expect(next).toBe(asked.pathname + asked.search);
    const signedIn = await visitor.signIn(owner.email, owner.password, next);
    expect(signedIn.location).toBe(next);
    expect((await visitor.fetch(next)).text).toContain('https://later.example');
  });
});

describe('POST /auth/keys/code: a management key issues a code without a browser', () => {
  it('the code is exchanged like an approval\'s, for a key of the management key\'s account with the limit', async () => {
    const management = await createKey(harness.gateway.store, { accountId: harness.accountId, management: true });
    const created = await sdk.oAuth.createAuthCode({ requestBody: { callbackUrl: 'https://server.example/cb', codeChallenge: s256Challenge(VERIFIER), codeChallengeMethod: 'S256', limit: 2.5 } }, { headers: { authorization: `Bearer ${management.key}` } } as never);
    const result = await sdk.oAuth.exchangeAuthCodeForAPIKey({ requestBody: { code: created.data.id, codeVerifier: VERIFIER, codeChallengeMethod: 'S256' } } as never);
    expect(result.userId).toBeNull();
    const inspected = await send(harness, { path: '/key', key: result.key });
    expect((inspected.json as { data: { name: string; limit: number } }).data).toMatchObject({ name: 'https://server.example', limit: 2.5 });
  });

  it('an inference key is refused with the one 401, and a bad callback or method with a 400 naming it', async () => {
    const refused = await send(harness, { path: '/auth/keys/code', body: { callback_url: 'https://x.example', code_challenge: s256Challenge(VERIFIER) } });
    expect(refused.status).toBe(401);
    const management = await createKey(harness.gateway.store, { accountId: harness.accountId, management: true });
    for (const [body, field] of [
      [{ callback_url: 'http://evil.example', code_challenge: s256Challenge(VERIFIER) }, 'callback_url'],
      [{ callback_url: 'https://x.example', code_challenge: s256Challenge(VERIFIER), code_challenge_method: 'plain' }, 'code_challenge_method'],
      [{ callback_url: 'https://x.example' }, 'code_challenge'],
      [{ callback_url: 'https://x.example', code_challenge: s256Challenge(VERIFIER), limit: -1 }, 'limit'],
      [{ callback_url: 'https://x.example', code_challenge: s256Challenge(VERIFIER), workspace_id: 'ws_other' }, 'workspace_id'],
    ] as const) {
      const reply = await send(harness, { path: '/auth/keys/code', body, key: management.key });
      expect(reply.status, field).toBe(400);
      expect((reply.json as ErrorEnvelope).error.metadata.field).toBe(field);
    }
  });
});
