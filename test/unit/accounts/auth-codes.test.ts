import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../../src/accounts/accounts.js';
import { AUTH_CODE_LIFETIME_MS, issueAuthCode, redeemAuthCode, s256Challenge, verifierProblem, type CodeGrant } from '../../../src/accounts/auth-codes.js';
import type { Store } from '../../../src/store/store.js';
import { STORE_ENGINES } from '../../support/store-engines.js';

const VERIFIER = 'v'.repeat(20) + '-._~' + 'A1'.repeat(10);

describe('code verifiers', () => {
  it.each([
    ['42 characters', 'a'.repeat(42)],
    ['129 characters', 'a'.repeat(129)],
    ['a character outside the set', `${'a'.repeat(43)}+`],
    ['a space', `${'a'.repeat(43)} `],
  ])('a verifier with %s is refused', (_name, verifier) => {
    expect(verifierProblem(verifier)).toMatch(/43 to 128/);
  });

  it('43 and 128 characters of the set are accepted', () => {
    expect(verifierProblem('a'.repeat(43))).toBeNull();
    expect(verifierProblem('Az09-._~'.repeat(16))).toBeNull();
  });

  it('the S256 challenge is the base64url SHA-256 of the verifier (RFC 7636 appendix B)', () => {
    expect(s256Challenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });
});

describe.each(STORE_ENGINES)('approval codes on $name', (engine) => {
  const opened: Store[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((store) => store.close()));
  });

  async function grantIn(): Promise<{ store: Store; grant: CodeGrant }> {
    const store = await engine.open();
    opened.push(store);
    const { accountId, workspaceId } = await createAccount(store, { name: 'team' });
    return { store, grant: { accountId, workspaceId, approver: { kind: 'user', userId: 'user_1' }, callbackOrigin: 'https://app.example', limit: 5n } };
  }

  it('a code is stored only as its hash and exchanged once for its grant', async () => {
    const { store, grant } = await grantIn();
    const { code } = await issueAuthCode(store, grant, s256Challenge(VERIFIER));
    expect(JSON.stringify(await store.db.selectFrom('auth_codes').selectAll().execute())).not.toContain(code);
    expect(await redeemAuthCode(store, code, VERIFIER)).toEqual(grant);
    expect(await redeemAuthCode(store, code, VERIFIER)).toBeNull();
  });

  it('a verifier that does not hash to the challenge is refused, and the code is used up: it is consumed when read', async () => {
    const { store, grant } = await grantIn();
    const { code } = await issueAuthCode(store, grant, s256Challenge(VERIFIER));
    expect(await redeemAuthCode(store, code, `${VERIFIER}x`)).toBeNull();
    expect(await redeemAuthCode(store, code, VERIFIER)).toBeNull();
  });

  it('a code expires ten minutes after it was issued', async () => {
    const { store, grant } = await grantIn();
    const issued = new Date();
    const { code } = await issueAuthCode(store, grant, s256Challenge(VERIFIER), issued);
    expect(await redeemAuthCode(store, code, VERIFIER, new Date(issued.getTime() + AUTH_CODE_LIFETIME_MS))).toBeNull();
    expect(await redeemAuthCode(store, code, VERIFIER, new Date(issued.getTime() + AUTH_CODE_LIFETIME_MS - 1))).toEqual(grant);
  });

  it('of concurrent exchanges of one code exactly one wins', async () => {
    const { store, grant } = await grantIn();
    const { code } = await issueAuthCode(store, grant, s256Challenge(VERIFIER));
    const results = await Promise.all(Array.from({ length: 8 }, () => redeemAuthCode(store, code, VERIFIER)));
    expect(results.filter((result) => result !== null)).toHaveLength(1);
  });

  it('a management key as approver survives the round trip', async () => {
    const { store, grant } = await grantIn();
    const byKey: CodeGrant = { ...grant, approver: { kind: 'management_key', keyHash: 'ab'.repeat(32) }, limit: null };
    const { code } = await issueAuthCode(store, byKey, s256Challenge(VERIFIER));
    expect(await redeemAuthCode(store, code, VERIFIER)).toEqual(byKey);
  });
});
