import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route answers CORS preflights for the routes at its path (see `openToBrowsers`). */
    preflight?: boolean;
  }
}

/**
 * Headers a page may read from a reply: the ones clients act on (correlation, rate limits, retries,
 * the serving provider). The simple ones (Content-Type, …) are readable anyway.
 */
export const EXPOSED_HEADERS = [
  'x-generation-id',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'retry-after',
  'x-should-retry',
  'x-provider-name',
  'x-service-voice',
] as const;

/** How long a browser may keep a preflight's answer (Chromium keeps at most two hours). */
export const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** At most this many header names are allowed in one preflight. */
const MAX_REQUESTED_HEADERS = 64;

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9a-z-]{1,128}$/;

/** What every reply of an open route carries: any origin, never credentials. */
const CROSS_ORIGIN_REPLY_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers': EXPOSED_HEADERS.join(', '),
};

/**
 * Opens the routes registered in `scope` after this call to pages of any origin, for callers that
 * hold a key (the approval flow gives browser apps one):
 * - every reply, errors included, carries `Access-Control-Allow-Origin: *` and the exposed headers,
 *   set first thing (an `onRequest` hook), so a refusal by a later guard (401, 402, 429) is readable
 *   too. Never `Access-Control-Allow-Credentials`: a page cannot send cookies along, and the key it
 *   holds is its only credential;
 * - every path gets an `OPTIONS` route answering preflights (204) with the path's methods and the
 *   headers the page asks to send. A preflight carries no key: the scope's guard must let it
 *   through (`isPreflight`) and count it against the client address, as any request without a key.
 * Call it before the scope's guard hooks and before its routes.
 */
export function openToBrowsers(scope: FastifyInstance): void {
  // first thing, for replies written past Fastify (streams); again on send, for a refusal by a guard
  // of an enclosing scope, whose hooks run before these
  // callbacks rather than async functions: these run on every request of the scope
  scope.addHook('onRequest', (request, reply, done) => {
    if (!isPreflight(request)) reply.headers(CROSS_ORIGIN_REPLY_HEADERS);
    done();
  });
  scope.addHook('onSend', (request, reply, payload, done) => {
    if (!reply.hasHeader('access-control-expose-headers') && !isPreflight(request)) reply.headers(CROSS_ORIGIN_REPLY_HEADERS);
    done(null, payload);
  });
  const methodsByPath = new Map<string, Set<string>>();
  scope.addHook('onRoute', (route) => {
    if (route.config?.preflight === true) return;
    let methods = methodsByPath.get(route.url);
    if (!methods) {
      const known = new Set<string>();
      methods = known;
      methodsByPath.set(route.url, known);
      scope.route({
        method: 'OPTIONS',
        url: route.url.slice(scope.prefix.length),
        config: { preflight: true },
        schema: { hide: true },
        handler: async (request, reply) => answerPreflight(request, reply, known),
      });
    }
    for (const method of [route.method].flat()) methods.add(method.toUpperCase());
  });
}

/**
 * `register`'s routes opened to browsers inside whatever scope it is registered in (for a public
 * route such as `POST /auth/keys`, whose guard already counts a preflight against its address):
 * `registerScope(api, services, 'public', [openedToBrowsers(registerAuthKeysRoute)])`.
 */
export function openedToBrowsers<S>(register: (scope: FastifyInstance, services: S) => void | Promise<void>): (scope: FastifyInstance, services: S) => Promise<void> {
  return async (scope, services) => {
    await scope.register(async (opened) => {
      openToBrowsers(opened);
      await register(opened, services);
    });
  };
}

/** True for the preflight routes `openToBrowsers` adds: they carry no key. */
export function isPreflight(request: FastifyRequest): boolean {
  return request.routeOptions.config.preflight === true;
}

function answerPreflight(request: FastifyRequest, reply: FastifyReply, methods: ReadonlySet<string>): FastifyReply {
  const allowed = [...methods, 'OPTIONS'].join(', ');
  reply.headers({
    'access-control-allow-origin': '*',
    'access-control-allow-methods': allowed,
    'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
    allow: allowed,
    vary: 'Access-Control-Request-Headers',
  });
  const headers = requestedHeaders(request.headers['access-control-request-headers']);
  if (headers.length > 0) reply.header('access-control-allow-headers', headers.join(', '));
  return reply.code(204).send();
}

/**
 * The header names a preflight asks to send, when they are well formed: every such name is allowed
 * (`authorization`, `content-type`, `x-api-key`, `http-referer`, `x-title`, the SDKs' `x-stainless-*`,
 * `anthropic-*`, …). A page can only act with the key it was given, never with ambient credentials,
 * so no header widens what it can do. A malformed list allows none.
 */
function requestedHeaders(value: string | string[] | undefined): string[] {
  if (value === undefined) return [];
  const names = [value].flat().join(',').split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
  if (names.length > MAX_REQUESTED_HEADERS || !names.every((name) => HEADER_NAME.test(name))) return [];
  return [...new Set(names)];
}
