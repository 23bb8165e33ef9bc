import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';

/** One named readiness check as a probe reports it; `reason` says why a failed one failed. */
export interface CheckResult {
  name: string;
  ok: boolean;
  reason?: string;
}

export interface ReadinessReport {
  ready: boolean;
  checks: CheckResult[];
}

/** What `/readyz` asks: whether everything the instance needs to serve is there. */
export interface ReadinessProbe {
  probe(): Promise<ReadinessReport>;
}

/**
 * `GET /healthz` — the process is alive and answers.
 * `GET /readyz` — every readiness check passes (200), or 503 naming the checks that failed and why.
 */
export function registerHealthRoutes(app: FastifyInstance, services: Pick<Services, 'readiness'>): void {
  app.get('/healthz', { schema: { summary: 'Liveness: the process answers' } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { summary: 'Readiness: database reachable, catalogue loaded' } }, async (_request, reply) => {
    const report = await services.readiness.probe();
    return reply.code(report.ready ? 200 : 503).send({ status: report.ready ? 'ok' : 'unavailable', checks: report.checks });
  });
}
