import type { FastifyInstance, FastifyRequest } from 'fastify';
import { readSession, type Session } from '../accounts/sessions.js';
import type { Services } from '../http/services.js';
import { DEFAULT_NEXT } from './safe-next.js';
import { clearSessionCookie, SESSION_COOKIE, VISITOR_CSRF_COOKIE } from './web-cookies.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in person's session on a web page; null when signed out. */
    webSession?: Session | null;
    /** Where @fastify/csrf-protection finds the secret of this request's CSRF tokens. */
    session?: { _csrf?: string };
  }
  interface FastifyContextConfig {
    /** A web page a signed-out visitor may reach (sign-in); every other web page needs a session. */
    signedOut?: boolean;
  }
}

/**
 * The `web` scope's guard. Every request: the session cookie is read (an unknown, expired or
 * revoked session counts as signed out and its cookie is cleared), and the CSRF secret is the
 * session's own, or the visitor cookie's when signed out. A page that needs a session sends a
 * signed-out visitor to `/auth/login` and back. Every POST must carry a valid CSRF token (`_csrf`),
 * checked before its handler runs: a missing or tampered token is a 403 and changes nothing.
 */
export function addWebGuard(scope: FastifyInstance, services: Services): void {
  scope.addHook('onRequest', async (request, reply) => {
    const token = request.cookies[SESSION_COOKIE];
    const session = token ? await readSession(services.store, token) : null;
    if (token && !session) clearSessionCookie(request, reply);
    request.webSession = session;
    const secret = session?.csrfSecret ?? request.cookies[VISITOR_CSRF_COOKIE];
    request.session = secret === undefined ? {} : { _csrf: secret };
    if (!session && request.routeOptions.config.signedOut !== true) return reply.redirect(signInAddress(request), 303);
    return undefined;
  });
  scope.addHook('preHandler', (request, reply, done) => {
    if (request.method !== 'POST') return done();
    scope.csrfProtection(request, reply, done);
  });
}

/** The sign-in page, returning to the page asked for (a POST returns to the dashboard). */
function signInAddress(request: FastifyRequest): string {
  const next = request.method === 'GET' || request.method === 'HEAD' ? request.url : DEFAULT_NEXT;
  return `/auth/login?next=${encodeURIComponent(next)}`;
}

/** The signed-in session; the guard has made sure there is one on every page that calls this. */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.webSession) throw new Error('a web page needing a session was reached without one');
  return request.webSession;
}

/** Who changes something from a page: the person, through the page, from the request's address. */
export function pageChange(request: FastifyRequest, via: 'dashboard' | 'approval' = 'dashboard'): { actor: { kind: 'user'; userId: string }; via: 'dashboard' | 'approval'; address: string } {
  return { actor: { kind: 'user', userId: sessionOf(request).user.id }, via, address: request.ip };
}
