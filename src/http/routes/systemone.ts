import type { FastifyInstance } from 'fastify';
import { SystemOneRequestSchema, type SystemOneRequestBody } from '../../dialects/systemone/schema.js';
import { decodeSystemOneRequest } from '../../dialects/systemone/decode.js';
import { assignGenerationId } from '../generation-id.js';
import { requireKey } from '../auth.js';
import { dropNullMembers } from '../null-members.js';
import { rateLimit } from '../rate-limit.js';
import { runDecisions } from '../../inference/decisions.js';
import type { Services } from '../services.js';

/** POST /systemone: typed answers (choice, score, noul) to questions about a supplied state. */
export function registerSystemOneRoute(app: FastifyInstance, services: Services): void {
  app.post('/systemone', {
    schema: { summary: 'Typed answers to questions about a supplied state', body: SystemOneRequestSchema, security: [{ bearer: [] }] },
    onRequest: [assignGenerationId, requireKey(services.keys, { spending: true }), rateLimit(services.limiters, 'key')],
    preValidation: async (request) => {
      dropNullMembers(request.body);
    },
    handler: async (request, reply) => {
      const call = decodeSystemOneRequest(request.body as SystemOneRequestBody, request.headers);
      return runDecisions(services, request, reply, call);
    },
  });
}
