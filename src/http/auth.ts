import type { FastifyRequest } from 'fastify';
import type { KeyContext } from '../accounts/types.js';
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

export function authenticatedKey(request: FastifyRequest): KeyContext {
  if (!request.key) throw unauthenticated();
  return request.key;
}
