import type { FastifyReply, FastifyRequest } from 'fastify';
import { setVisitorCsrfCookie } from './web-cookies.js';

/**
 * A CSRF token for this page's forms, made from the session's secret (signed in) or the visitor's
 * cookie secret (signed out, created on first need).
 */
export function csrfToken(request: FastifyRequest, reply: FastifyReply): string {
  request.session ??= {};
  const hadSecret = request.session._csrf !== undefined;
  const token = reply.generateCsrf();
  const secret = request.session._csrf;
  if (!hadSecret && secret !== undefined && !request.webSession) setVisitorCsrfCookie(request, reply, secret);
  return token;
}

/**
 * Renders a page template with what every page shows: the signed-in person (for the header and
 * the Sign out form) and a CSRF token for its forms. Pages are never cached.
 */
export async function renderPage(request: FastifyRequest, reply: FastifyReply, template: string, data: Record<string, unknown>, status = 200): Promise<FastifyReply> {
  const user = request.webSession?.user ?? null;
  const html = await reply.viewAsync(template, { ...data, csrf: csrfToken(request, reply), user });
  return reply.code(status).header('cache-control', 'no-store').type('text/html; charset=utf-8').send(html);
}
