import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';
import { addressIdentity } from '../ratelimit/client-address.js';
import type { RateLimiter, WindowVerdict } from '../ratelimit/rate-limiter.js';

export interface RateLimiters {
  /** Every authenticated request, per key. */
  perKey: RateLimiter;
  /** Every request that does not authenticate, per client address. */
  perAddress: RateLimiter;
}

/** Counts the request against its key; sets the rate-limit headers; refuses with 429 past the limit. */
export async function countKey(limiters: RateLimiters, keyId: string, reply: FastifyReply): Promise<void> {
  enforce(reply, await limiters.perKey.take(`key:${keyId}`));
}

/**
 * Counts the request against its client address, the same way: the connection's address, or behind
 * a trusted reverse proxy (`trust_proxy`) the client its `X-Forwarded-For` names.
 */
export async function countAddress(limiters: RateLimiters, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  enforce(reply, await limiters.perAddress.take(`addr:${addressIdentity(request.ip)}`));
}

function enforce(reply: FastifyReply, verdict: WindowVerdict): void {
  reply.header('x-ratelimit-limit', String(verdict.limit));
  reply.header('x-ratelimit-remaining', String(verdict.remaining));
  reply.header('x-ratelimit-reset', String(verdict.resetAt));
  if (!verdict.allowed) {
    throw new GatewayError('rate_limit_exceeded', 'Rate limit exceeded; retry later', {
      headers: { 'retry-after': String(verdict.retryAfter) },
    });
  }
}
