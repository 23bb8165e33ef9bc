import type { FastifyInstance } from 'fastify';
import { GatewayError, toEnvelope } from '../core/errors.js';

const RESTART_RETRY_AFTER_SECONDS = '5';

/**
 * While the instance drains for a restart, new requests answer 503 with `Retry-After: 5` and
 * `X-Should-Retry: true` (a restart: repeating is correct); requests in flight finish.
 */
export function registerDrain(app: FastifyInstance): void {
  let draining = false;
  app.addHook('onClose', async () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    draining = true;
  });
  app.addHook('onRequest', async (_request, reply) => {
    if (!draining) return;
    const error = new GatewayError('restarting', 'The service is restarting; retry in 5 seconds', {
      headers: { 'retry-after': RESTART_RETRY_AFTER_SECONDS, 'x-should-retry': 'true' },
    });
    return reply.code(error.status).headers(error.headers).send(toEnvelope(error));
  });
}
