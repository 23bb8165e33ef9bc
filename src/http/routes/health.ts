import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Services } from '../services.js';

const HealthSchema = Type.Object({ status: Type.Literal('ok') });

const ReadinessSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  checks: Type.Array(Type.Object({ name: Type.String(), ok: Type.Boolean(), reason: Type.Optional(Type.String()) })),
});

/**
 * `GET /healthz` — the process is alive and answers.
 * `GET /readyz` — every readiness check passes (200), or 503 naming the checks that failed and why
 * (`drain` while the instance drains for a restart).
 */
export function registerHealthRoutes(app: FastifyInstance, services: Pick<Services, 'readiness'>): void {
  app.get('/healthz', {
    schema: { summary: 'Liveness: the process answers', operationId: 'getHealthz', response: { 200: HealthSchema } },
  }, async () => ({ status: 'ok' }));
  app.get('/readyz', {
    schema: {
      summary: 'Readiness: database reachable, catalogue loaded',
      operationId: 'getReadyz',
      response: { 200: ReadinessSchema, 503: ReadinessSchema },
    },
  }, async (_request, reply) => {
    const report = await services.readiness.probe();
    const checks = app.drain.active ? [...report.checks, { name: 'drain', ok: false, reason: 'the instance is draining for a restart' }] : report.checks;
    const ready = report.ready && !app.drain.active;
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ok' : 'unavailable', checks });
  });
}
