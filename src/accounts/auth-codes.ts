import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Units } from '../billing/money.js';
import type { Store } from '../store/store.js';

/** How long an approval code can be exchanged: ten minutes, once. */
export const AUTH_CODE_LIFETIME_MS = 10 * 60 * 1000;

/** A code verifier: 43 to 128 characters of `A-Z a-z 0-9 - . _ ~` (RFC 7636). */
const VERIFIER_SHAPE = /^[A-Za-z0-9\-._~]{43,128}$/;

/** An S256 challenge: the base64url SHA-256 of a verifier, 43 characters without padding. */
const CHALLENGE_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Who approved the code, and so whom the key's creation is attributed to: a signed-in person on
 * the approval page, or a management key through `POST /auth/keys/code`. Stored in the code's
 * `user_id` column: a user id as is (user ids never contain `:`), a management key as
 * `management_key:<hash>`.
 */
export type CodeApprover = { kind: 'user'; userId: string } | { kind: 'management_key'; keyHash: string };

const MANAGEMENT_KEY_APPROVER = 'management_key:';

/** What a code is bound to, fixed when it is issued. */
export interface CodeGrant {
  accountId: string;
  approver: CodeApprover;
  workspaceId: string;
  /** The callback's origin: the issued key is named after it. */
  callbackOrigin: string;
  /** The key's spend limit, or null for none. */
  limit: Units | null;
}

/** Why a verifier is refused, or null when it has the shape RFC 7636 asks for. */
export function verifierProblem(verifier: string): string | null {
  return VERIFIER_SHAPE.test(verifier) ? null : 'must be 43 to 128 characters of A-Z a-z 0-9 - . _ ~';
}

/** True for a value an S256 challenge can be. */
export function isS256Challenge(challenge: string): boolean {
  return CHALLENGE_SHAPE.test(challenge);
}

/** The S256 challenge of a verifier: base64url SHA-256, no padding. */
export function s256Challenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

function codeHashOf(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** Issues a one-time code bound to `grant` and `codeChallenge`; only its SHA-256 is stored. */
export async function issueAuthCode(store: Store, grant: CodeGrant, codeChallenge: string, at: Date = new Date()): Promise<{ code: string; expiresAt: Date }> {
  if (!isS256Challenge(codeChallenge)) throw new RangeError('code_challenge: must be the base64url SHA-256 of the verifier (43 characters)');
  const code = randomBytes(32).toString('base64url');
  const expiresAt = new Date(at.getTime() + AUTH_CODE_LIFETIME_MS);
  await store.write(async (tx) => {
    await tx.deleteFrom('auth_codes').where('expires_at', '<=', at.getTime() - AUTH_CODE_LIFETIME_MS).execute();
    await tx
      .insertInto('auth_codes')
      .values({
        code_hash: codeHashOf(code),
        account_id: grant.accountId,
        user_id: grant.approver.kind === 'user' ? grant.approver.userId : `${MANAGEMENT_KEY_APPROVER}${grant.approver.keyHash}`,
        workspace_id: grant.workspaceId,
        callback_origin: grant.callbackOrigin,
        code_challenge: codeChallenge,
        limit_units: grant.limit === null ? null : grant.limit.toString(),
        created_at: at.getTime(),
        expires_at: expiresAt.getTime(),
        consumed_at: null,
      })
      .execute();
  });
  return { code, expiresAt };
}

/**
 * Exchanges a code and its verifier for the grant, consuming the code: null for an unknown,
 * expired or already used code, or a verifier that does not hash to the code's challenge (the
 * callers answer all of these alike). The code is consumed when read (spec 02 Authentication 7),
 * whatever the verifier: a wrong one uses it up too, so a code gives one try. It is consumed by one
 * conditional UPDATE, so of two concurrent exchanges exactly one reads it.
 */
export async function redeemAuthCode(store: Store, code: string, verifier: string, at: Date = new Date()): Promise<CodeGrant | null> {
  if (code === '' || code.length > 200 || verifierProblem(verifier) !== null) return null;
  const codeHash = codeHashOf(code);
  const row = await store.db.selectFrom('auth_codes').selectAll().where('code_hash', '=', codeHash).executeTakeFirst();
  if (!row || row.consumed_at !== null || row.expires_at <= at.getTime()) return null;
  const consumed = await store.write((tx) =>
    tx
      .updateTable('auth_codes')
      .set({ consumed_at: at.getTime() })
      .where('code_hash', '=', codeHash)
      .where('consumed_at', 'is', null)
      .where('expires_at', '>', at.getTime())
      .executeTakeFirst());
  if (consumed.numUpdatedRows !== 1n || !sameText(s256Challenge(verifier), row.code_challenge)) return null;
  return {
    accountId: row.account_id,
    approver: approverOf(row.user_id),
    workspaceId: row.workspace_id,
    callbackOrigin: row.callback_origin,
    limit: row.limit_units === null ? null : BigInt(row.limit_units),
  };
}

function approverOf(stored: string): CodeApprover {
  return stored.startsWith(MANAGEMENT_KEY_APPROVER)
    ? { kind: 'management_key', keyHash: stored.slice(MANAGEMENT_KEY_APPROVER.length) }
    : { kind: 'user', userId: stored };
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
