import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { endSession, startSession } from '../accounts/sessions.js';
import { clearFailures, lockedUntil, recordFailure } from '../accounts/sign-in-throttle.js';
import { checkPassword } from '../accounts/users.js';
import { countAddress } from '../http/rate-limit.js';
import type { Services } from '../http/services.js';
import { formField, queryField } from './form-fields.js';
import { renderPage } from './page-render.js';
import { safeNextPath } from './safe-next.js';
import { clearSessionCookie, SESSION_COOKIE, setSessionCookie } from './web-cookies.js';

/** The one message for an unknown email and a wrong password alike. */
export const SIGN_IN_REFUSAL = 'The email or password is not right.';

/** Longest email or password read from the form; longer ones fail like a wrong password. */
const MAX_FIELD_LENGTH = 1024;

/**
 * `GET /auth/login` (the form: Email, Password, Sign in), `POST /auth/login` (signs in and returns
 * to a safe same-site `next`), `POST /auth/logout` (Sign out: the session row is deleted).
 */
export function registerSignInPages(scope: FastifyInstance, services: Services): void {
  scope.get('/auth/login', { config: { signedOut: true }, schema: { hide: true } }, async (request, reply) => {
    const next = safeNextPath(queryField(request.query, 'next'));
    if (request.webSession) return reply.redirect(next, 303);
    return renderPage(request, reply, 'login', { title: 'Sign in', next, email: '', message: null });
  });

  scope.post('/auth/login', { config: { signedOut: true }, schema: { hide: true } }, async (request, reply) => {
    await countAddress(services.limiters, request, reply);
    const email = formField(request.body, 'email').trim();
    const password = formField(request.body, 'password');
    const next = safeNextPath(formField(request.body, 'next'));
    const refuse = (status: number, message: string) => renderPage(request, reply, 'login', { title: 'Sign in', next, email, message }, status);
    if (email === '') return refuse(400, 'Email: enter the email you sign in with.');
    if (password === '') return refuse(400, 'Password: enter your password.');
    const subjects = { email: email.slice(0, MAX_FIELD_LENGTH), address: request.ip };
    const locked = await lockedUntil(services.store, subjects);
    if (locked) return refuse(429, lockOutMessage(locked));
    const user = email.length > MAX_FIELD_LENGTH ? null : await checkPassword(services.store, email, password);
    if (!user) {
      const nowLocked = await recordFailure(services.store, subjects);
      return refuse(nowLocked ? 429 : 401, nowLocked ? lockOutMessage(nowLocked) : SIGN_IN_REFUSAL);
    }
    await clearFailures(services.store, email);
    const { token } = await startSession(services.store, user);
    setSessionCookie(request, reply, token);
    return reply.redirect(next, 303);
  });

  scope.post('/auth/logout', { config: { signedOut: true }, schema: { hide: true } }, async (request, reply) => signOut(services, request, reply));
}

async function signOut(services: Services, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const token = request.cookies[SESSION_COOKIE];
  if (token) await endSession(services.store, token);
  clearSessionCookie(request, reply);
  return reply.redirect('/auth/login', 303);
}

/** Says when to try again, to the minute, in UTC. */
export function lockOutMessage(until: Date): string {
  const minute = new Date(Math.ceil(until.getTime() / 60_000) * 60_000);
  const when = minute.toISOString().slice(0, 16).replace('T', ' ');
  return `Too many failed sign-ins. Signing in is paused for this email or address until ${when} UTC; try again then.`;
}
