import type { FastifyInstance } from 'fastify';

/** `GET /` — liveness, no key. */
export function registerRootRoute(app: FastifyInstance): void {
  app.get('/', { schema: { summary: 'Liveness' } }, async () => ({ name: 'switchyard', status: 'ok' }));
}
