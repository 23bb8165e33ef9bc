import type { FastifyInstance } from 'fastify';
import { restartError } from '../inference/restart.js';
import { errorBody } from './error-envelope.js';

const IDLE_SWEEP_MS = 100;

/**
 * While the instance drains for a restart, new requests answer 503 with `Retry-After: 5` and
 * `X-Should-Retry: true` (a restart: repeating is correct); requests in flight finish, or, past the
 * drain grace (`Services.restart`), end with the same 503: in-band when their stream had opened.
 */
export function registerDrain(app: FastifyInstance): void {
  let draining = false;
  app.addHook('onClose', async () => {
    draining = true;
  });
  app.addHook('preClose', async () => {
    draining = true;
    // Keep-alive connections whose request finishes during the drain would otherwise stay open
    // until their idle timeout and hold the close up; close each as soon as it goes idle.
    const closeIdle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
    closeIdle.unref();
    app.server.once('close', () => clearInterval(closeIdle));
  });
  app.addHook('onRequest', async (request, reply) => {
    if (!draining) return;
    const error = restartError();
    return reply.code(error.status).headers(error.headers).send(errorBody(request, error));
  });
}
