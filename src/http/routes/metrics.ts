import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';

/** `GET /metrics` — every metric of this instance, for a Prometheus scrape. */
export function registerMetricsRoute(app: FastifyInstance, services: Pick<Services, 'metrics'>): void {
  app.get('/metrics', {
    schema: {
      summary: 'Prometheus metrics of this instance',
      operationId: 'getMetrics',
      produces: ['text/plain'],
      response: { 200: { description: 'The Prometheus text exposition format', content: { 'text/plain': { schema: { type: 'string' } } } } },
    },
  }, async (_request, reply) =>
    reply.type(services.metrics.contentType).send(await services.metrics.text()));
}
