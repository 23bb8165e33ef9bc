import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { KeyContext } from '../accounts/types.js';
import { GatewayError, unauthenticated } from '../core/errors.js';
import { clientAbortedError } from '../inference/call.js';
import { presentedKey } from './auth.js';
import { assignGenerationId } from './generation-id.js';
import { isPreflight, openToBrowsers } from './cors.js';
import { countAddress, countKey } from './rate-limit.js';
import { recordRefusalOf } from './inference/http-call.js';
import type { Services } from './services.js';

/**
 * Where a route belongs, and so which guard admits its requests:
 * - `public`: no key; every request counts against its client address;
 * - `key`: an inference key, counted against the key; a request that does not authenticate counts
 *   against its address and gets the one 401;
 * - `management`: a management key, counted the same way;
 * - `operator`: no key and no limit: health and metrics, for the machines watching the instance;
 * - `web`: the pages (`/auth/login`, `/auth`, `/dashboard…`): a signed-in person's cookie session,
 *   a CSRF token on every form (see web/web-guard.ts); no key, no cross-origin answers.
 */
export type ScopeName = 'public' | 'key' | 'management' | 'operator' | 'web';

export type RouteRegistrar = (scope: FastifyInstance, services: Services) => void | Promise<void>;

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * An admission refusal (key, rate limit) held until the body is read, on routes whose dialect
     * answers a refused streamed request in its own envelope; it still wins over any complaint
     * about the body.
     */
    deferredRefusal?: GatewayError;
    /** Set once the body was read: from then on the route's own path records what happens. */
    bodyRead?: boolean;
  }
  interface FastifyContextConfig {
    /** The scope the route belongs to (its guard, and so its security in the OpenAPI document). */
    scope?: ScopeName;
  }
}

/** The guard of the `web` scope (a cookie session), which the pages bring: this layer knows no page. */
export type ScopeGuard = (scope: FastifyInstance, services: Services) => void;

/**
 * Registers `registrars` in one scope, whose hooks are its guard; a route belongs to exactly one
 * scope. The `web` scope is guarded by `webGuard`.
 */
export async function registerScope(app: FastifyInstance, services: Services, name: ScopeName, registrars: readonly RouteRegistrar[], webGuard?: ScopeGuard): Promise<void> {
  await app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, scope: name };
    });
    if (name === 'public') {
      scope.addHook('onRequest', (request, reply) => countAddress(services.limiters, request, reply));
    } else if (name === 'web') {
      if (!webGuard) throw new Error('the web scope needs its guard');
      webGuard(scope, services);
    } else if (name !== 'operator') {
      const accepts = name === 'management' ? (key: KeyContext) => key.management : (key: KeyContext) => !key.management;
      // Browser apps holding a key reach the key scope from any origin; the management scope answers no other origin.
      if (name === 'key') openToBrowsers(scope);
      scope.addHook('onRequest', (request, reply) =>
        (isPreflight(request) ? countAddress(services.limiters, request, reply) : admitKey(services, accepts, request, reply)));
      scope.addHook('preValidation', (request, _reply, done) => {
        request.bodyRead = true;
        done(request.deferredRefusal);
      });
      // A caller who leaves while its body is being read gets no answer and no handler runs: its call
      // is recorded here as cancelled (408), as it would be at any later point.
      scope.addHook('onRequestAbort', async (request) => {
        if (!request.bodyRead) await recordRefusalOf(services, request, clientAbortedError());
      });
    }
    for (const register of registrars) await register(scope, services);
  });
}

async function admitKey(services: Services, accepts: (key: KeyContext) => boolean, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  assignGenerationId(request, reply);
  try {
    const key = await services.keys.authenticate(presentedKey(request));
    if (!key || !accepts(key)) {
      await countAddress(services.limiters, request, reply);
      throw unauthenticated();
    }
    request.key = key;
    await countKey(services.limiters, key.keyId, reply);
  } catch (error) {
    if (!(error instanceof GatewayError) || request.routeOptions.config.streamRefusalBody === undefined) throw error;
    request.deferredRefusal = error;
  }
  // A caller who left while it was being admitted gets no answer, but its call is recorded as
  // cancelled (408) under its generation id, like a caller leaving at any later point.
  if (request.key && (request.raw.destroyed || request.raw.socket.destroyed)) throw clientAbortedError();
}
