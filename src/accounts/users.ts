import { hash, verify } from '@node-rs/argon2';
import type { Store } from '../store/store.js';
import { isUniqueViolation } from '../store/unique-violation.js';
import { recordAudit, type ChangeContext } from './audit.js';
import { newRecordId } from './record-id.js';

export type UserRole = 'owner' | 'member';

export const USER_ROLES: readonly UserRole[] = ['owner', 'member'];

/** A person as the pages see them once signed in. */
export interface User {
  id: string;
  accountId: string;
  email: string;
  role: UserRole;
  /** Sessions created before this instant are no longer valid. */
  passwordChangedAt: Date;
}

/** Shortest password accepted; longer limits are left to the person. */
export const MIN_PASSWORD_LENGTH = 8;
/** Longest password hashed: argon2 takes any length, but nobody types more and hashing costs time. */
export const MAX_PASSWORD_LENGTH = 256;

const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The stored form of an email: trimmed and lowercased, so one person is one row however they type it. */
export function normalEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Why a password is refused, or null when it is acceptable. */
export function passwordProblem(password: string): string | null {
  if (password.length < MIN_PASSWORD_LENGTH) return `must be at least ${MIN_PASSWORD_LENGTH} characters`;
  if (password.length > MAX_PASSWORD_LENGTH) return `must be at most ${MAX_PASSWORD_LENGTH} characters`;
  return null;
}

/**
 * Adds a person to an account (argon2id hash of the password, never the password). Throws
 * RangeError naming the field for an invalid email or password, an email already taken, or an
 * unknown account. Audited as `user.create` (email and role only).
 */
export async function createUser(
  store: Store,
  input: { accountId: string; email: string; password: string; role: UserRole },
  context: ChangeContext,
): Promise<string> {
  const email = normalEmail(input.email);
  if (!EMAIL_SHAPE.test(email) || email.length > 254) throw new RangeError(`email: not an email address: ${JSON.stringify(input.email)}`);
  const problem = passwordProblem(input.password);
  if (problem) throw new RangeError(`password: ${problem}`);
  if (!USER_ROLES.includes(input.role)) throw new RangeError(`role: must be owner or member, got ${JSON.stringify(input.role)}`);
  const passwordHash = await hash(input.password);
  const id = newRecordId('user');
  const at = Date.now();
  const taken = new RangeError(`email: ${email} already has a user`);
  await store.write(async (tx) => {
    const account = await tx.selectFrom('accounts').select('id').where('id', '=', input.accountId).executeTakeFirst();
    if (!account) throw new RangeError(`account: no account ${input.accountId}`);
    if (await tx.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) throw taken;
    await tx
      .insertInto('users')
      .values({ id, account_id: input.accountId, email, password_hash: passwordHash, role: input.role, created_at: at, password_changed_at: at })
      .execute();
    await recordAudit(tx, context, { accountId: input.accountId, action: 'user.create', target: id, before: null, after: { email, role: input.role } });
  }).catch((error: unknown) => {
    // the loser of two concurrent creates of one email (PostgreSQL) meets the UNIQUE index
    throw isUniqueViolation(error) ? taken : error;
  });
  return id;
}

/**
 * The person whose email and password these are, or null. An unknown email costs one hash as a
 * wrong password does, so the answer time does not tell which emails exist.
 */
export async function checkPassword(store: Store, email: string, password: string): Promise<User | null> {
  const row = await store.db.selectFrom('users').selectAll().where('email', '=', normalEmail(email)).executeTakeFirst();
  // an overlong password is checked as an empty one: the same work, never a match
  const candidate = password.length > MAX_PASSWORD_LENGTH ? '' : password;
  const verified = await verify(row?.password_hash ?? (await decoyHash()), candidate).catch(() => false);
  const matches = verified && candidate !== '';
  return row && matches ? userOf(row) : null;
}

/** A person by id, or null. */
export async function readUser(store: Store, userId: string): Promise<User | null> {
  const row = await store.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirst();
  return row ? userOf(row) : null;
}

/**
 * Changes a person's password: every session they have ends (sign out everywhere). Audited as
 * `user.password` with nothing of the password in it.
 */
export async function changePassword(store: Store, userId: string, password: string, context: ChangeContext): Promise<void> {
  const problem = passwordProblem(password);
  if (problem) throw new RangeError(`password: ${problem}`);
  const passwordHash = await hash(password);
  await store.write(async (tx) => {
    const user = await tx.selectFrom('users').select(['account_id']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw new RangeError(`user: no user ${userId}`);
    await tx.updateTable('users').set({ password_hash: passwordHash, password_changed_at: Date.now() }).where('id', '=', userId).execute();
    await tx.deleteFrom('sessions').where('user_id', '=', userId).execute();
    await recordAudit(tx, context, { accountId: user.account_id, action: 'user.password', target: userId, before: null, after: null });
  });
}

let decoy: Promise<string> | undefined;

/** A hash no password is checked against for real: what an unknown email is verified against. */
function decoyHash(): Promise<string> {
  decoy ??= hash(`decoy-${Math.random()}`);
  return decoy;
}

function userOf(row: { id: string; account_id: string; email: string; role: string; password_changed_at: number }): User {
  return {
    id: row.id,
    accountId: row.account_id,
    email: row.email,
    role: row.role === 'owner' ? 'owner' : 'member',
    passwordChangedAt: new Date(row.password_changed_at),
  };
}
