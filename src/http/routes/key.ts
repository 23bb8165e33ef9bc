import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { authenticatedKey, requireKey } from '../auth.js';
import { rateLimit } from '../rate-limit.js';

/** `GET /key` — the key inspection record of the calling key. */
export function registerKeyRoute(app: FastifyInstance, services: Services): void {
  app.get('/key', {
    schema: { summary: 'Inspect the calling key', security: [{ bearer: [] }] },
    onRequest: [requireKey(services.keys, { spending: true }), rateLimit(services.limiters, 'key')],
  }, async (request) => ({ data: await services.keys.inspect(authenticatedKey(request)) }));
}
