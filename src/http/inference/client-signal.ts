import type { FastifyReply } from 'fastify';

/** Aborts when the caller goes away before the reply was sent, so upstream work stops too. */
export function clientSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
