import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_LIFETIME_MS } from '../accounts/sessions.js';

/** The signed-in browser's cookie: a random token; the database keeps only its SHA-256. */
export const SESSION_COOKIE = 'switchyard_session';

/** The secret of a signed-out visitor's CSRF tokens (the sign-in and approval forms before a session exists). */
export const VISITOR_CSRF_COOKIE = 'switchyard_csrf';

/** HttpOnly, SameSite=Lax, Secure when the request came over https (directly or through a trusted proxy). */
function cookieOptions(request: FastifyRequest, path: string, maxAgeMs: number | null): CookieSerializeOptions {
  return {
    path,
    httpOnly: true,
    sameSite: 'lax',
    secure: request.protocol === 'https',
    ...(maxAgeMs !== null && { maxAge: Math.floor(maxAgeMs / 1000) }),
  };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string): void {
  reply.setCookie(SESSION_COOKIE, token, cookieOptions(request, '/', SESSION_LIFETIME_MS));
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, cookieOptions(request, '/', null));
}

export function setVisitorCsrfCookie(request: FastifyRequest, reply: FastifyReply, secret: string): void {
  reply.setCookie(VISITOR_CSRF_COOKIE, secret, cookieOptions(request, '/auth', null));
}
