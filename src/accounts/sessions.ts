import { createHash, randomBytes } from 'node:crypto';
import type { Store } from '../store/store.js';
import type { User } from './users.js';
import { readUser } from './users.js';

/** How long a sign-in lasts: seven days from signing in, then the person signs in again. */
export const SESSION_LIFETIME_MS = 7 * 24 * 60 * 60 * 1000;

/** A signed-in browser as the pages see it. */
export interface Session {
  /** SHA-256 hex of the cookie's token (the row id); never the token itself. */
  id: string;
  user: User;
  /** The secret this session's CSRF tokens are made from. */
  csrfSecret: string;
  createdAt: Date;
  expiresAt: Date;
}

/** What a new sign-in hands back: the token for the cookie (shown to the browser only) and the session. */
export interface StartedSession {
  token: string;
  session: Session;
}

/** The row id of a cookie token: SHA-256 hex, so a copy of the table signs nobody in. */
export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/**
 * Starts a session for `user` (who has just proven their password): a random token for the
 * cookie, its hash stored with a fresh CSRF secret and the expiry. Expired sessions of the same
 * person are removed on the way.
 */
export async function startSession(store: Store, user: User, at: Date = new Date()): Promise<StartedSession> {
  const token = randomBytes(32).toString('base64url');
  const session: Session = {
    id: sessionIdOf(token),
    user,
    csrfSecret: randomBytes(18).toString('base64url'),
    createdAt: at,
    expiresAt: new Date(at.getTime() + SESSION_LIFETIME_MS),
  };
  await store.write(async (tx) => {
    await tx.deleteFrom('sessions').where('user_id', '=', user.id).where('expires_at', '<=', at.getTime()).execute();
    await tx
      .insertInto('sessions')
      .values({
        id: session.id,
        user_id: user.id,
        account_id: user.accountId,
        csrf_secret: session.csrfSecret,
        created_at: at.getTime(),
        expires_at: session.expiresAt.getTime(),
      })
      .execute();
  });
  return { token, session };
}

/**
 * The session a cookie token names, or null: unknown, expired, or older than the person's last
 * password change (sign out everywhere), or of a person who no longer exists.
 */
export async function readSession(store: Store, token: string, at: Date = new Date()): Promise<Session | null> {
  if (token === '' || token.length > 200) return null;
  const row = await store.db.selectFrom('sessions').selectAll().where('id', '=', sessionIdOf(token)).executeTakeFirst();
  if (!row || row.expires_at <= at.getTime()) return null;
  const user = await readUser(store, row.user_id);
  if (!user || row.created_at < user.passwordChangedAt.getTime()) return null;
  return { id: row.id, user, csrfSecret: row.csrf_secret, createdAt: new Date(row.created_at), expiresAt: new Date(row.expires_at) };
}

/** Ends the session a cookie token names (sign out); nothing happens for an unknown token. */
export async function endSession(store: Store, token: string): Promise<void> {
  if (token === '' || token.length > 200) return;
  await store.write(async (tx) => {
    await tx.deleteFrom('sessions').where('id', '=', sessionIdOf(token)).execute();
  });
}
