import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import type { KeyContext, KeyDirectory } from '../accounts/types.js';
import { unauthenticated } from '../core/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    key?: KeyContext;
    generationId?: string;
  }
}

/** The bearer value of `Authorization: Bearer …`, else of `x-api-key`. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    return match?.[1];
  }
  const apiKey = request.headers['x-api-key'];
  return Array.isArray(apiKey) ? apiKey[0] : apiKey;
}

/**
 * Requires a valid key. Every failure answers the one identical 401; a management key is
 * refused (with that same 401) on routes that spend or report spend.
 */
export function requireKey(keys: KeyDirectory, options: { spending: boolean }): preHandlerAsyncHookHandler {
  return async (request) => {
    const key = await keys.authenticate(presentedKey(request));
    if (!key || (options.spending && key.management)) throw unauthenticated();
    request.key = key;
  };
}

export function authenticatedKey(request: FastifyRequest): KeyContext {
  if (!request.key) throw unauthenticated();
  return request.key;
}
