import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { authenticatedKey } from '../auth.js';

/** `GET /key` — the key inspection record of the calling key. */
export function registerKeyRoute(app: FastifyInstance, services: Services): void {
  app.get('/key', {
    schema: { summary: 'Inspect the calling key', security: [{ bearer: [] }] },
  }, async (request) => ({ data: await services.keys.inspect(authenticatedKey(request)) }));
}
