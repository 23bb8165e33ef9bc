import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { rateLimit } from '../rate-limit.js';

/** `GET /` — liveness, no key. */
export function registerRootRoute(app: FastifyInstance, services: Services): void {
  app.get('/', { schema: { summary: 'Liveness' }, onRequest: rateLimit(services.limiters, 'address') }, async () => ({ name: 'switchyard', status: 'ok' }));
}
