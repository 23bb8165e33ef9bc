import { GatewayError } from '../../core/errors.js';
import type { FastifyReply } from 'fastify';

/**
 * Aborts when the caller goes away before the reply was sent, so upstream work stops too, or when
 * `restart` is aborted (a draining instance stops waiting).
 */
export function clientSignal(reply: FastifyReply, restart?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return restart ? AbortSignal.any([controller.signal, restart]) : controller.signal;
}

/** What a caller who left before the reply finished is recorded with (spec 02: 408 `timeout`). */
export function clientAbortedError(): GatewayError {
  return new GatewayError('client_timeout', 'Request aborted client-side before it finished');
}
