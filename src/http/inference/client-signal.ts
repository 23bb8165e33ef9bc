import { GatewayError } from '../../core/errors.js';
import type { FastifyReply } from 'fastify';

/**
 * Aborts when the caller goes away before the reply was sent, so upstream work stops too, or when
 * `restart` is aborted (a draining instance stops waiting). The listener on the long-lived `restart`
 * signal is removed when the reply closes: `AbortSignal.any` would leave one entry per request on
 * it for the life of the process.
 */
export function clientSignal(reply: FastifyReply, restart?: AbortSignal): AbortSignal {
  const controller = new AbortController();
  const onRestart = () => controller.abort();
  if (restart?.aborted) controller.abort();
  else restart?.addEventListener('abort', onRestart, { once: true });
  reply.raw.once('close', () => {
    restart?.removeEventListener('abort', onRestart);
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}

/** What a caller who left before the reply finished is recorded with (spec 02: 408 `timeout`). */
export function clientAbortedError(): GatewayError {
  return new GatewayError('client_timeout', 'Request aborted client-side before it finished');
}
