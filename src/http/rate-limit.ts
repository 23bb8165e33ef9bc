import type { FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { addressIdentity } from '../ratelimit/client-address.js';
import type { SlidingWindowLimiter, WindowVerdict } from '../ratelimit/sliding-window.js';

export interface RateLimiters {
  perKey: SlidingWindowLimiter;
  perAddress: SlidingWindowLimiter;
}

/**
 * Counts the request against its key (after authentication) or, without a key, against its
 * address; sets the rate-limit headers on every counted response; refuses with 429 past the limit.
 */
export function rateLimit(limiters: RateLimiters, scope: 'key' | 'address'): onRequestAsyncHookHandler {
  return async (request, reply) => {
    const verdict = scope === 'key' && request.key
      ? limiters.perKey.take(`key:${request.key.keyId}`)
      : limiters.perAddress.take(`addr:${addressIdentity(clientAddress(request))}`);
    setHeaders(reply, verdict);
    if (!verdict.allowed) {
      throw new GatewayError('rate_limit_exceeded', 'Rate limit exceeded; retry later', {
        headers: { 'retry-after': String(verdict.retryAfter) },
      });
    }
  };
}

function clientAddress(request: FastifyRequest): string {
  return request.socket.remoteAddress ?? request.ip;
}

function setHeaders(reply: FastifyReply, verdict: WindowVerdict): void {
  reply.header('x-ratelimit-limit', String(verdict.limit));
  reply.header('x-ratelimit-remaining', String(verdict.remaining));
  reply.header('x-ratelimit-reset', String(verdict.resetAt));
}
