import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { Services } from '../services.js';
import type { OperationBinding } from '../../inference/operation-binding.js';
import { assignGenerationId } from '../generation-id.js';
import { requireKey } from '../auth.js';
import { dropNullMembers } from '../null-members.js';
import { rateLimit } from '../rate-limit.js';
import { runOperation } from '../../inference/answer-operation.js';

export interface OperationRouteOptions<Body, Ask, Result> {
  url: string;
  summary: string;
  bodySchema: TSchema;
  operation: OperationBinding<Body, Ask, Result>;
}

/**
 * Registers a non-conversation route (embeddings, rerank) on the same seams as chat: generation id,
 * key, rate limit, body schema, then decode → plan → hold → call with failover → settle → reply.
 */
export function operationRoute<Body, Ask, Result>(app: FastifyInstance, services: Services, options: OperationRouteOptions<Body, Ask, Result>): void {
  app.post(options.url, {
    schema: { summary: options.summary, body: options.bodySchema, security: [{ bearer: [] }] },
    onRequest: [assignGenerationId, requireKey(services.keys, { spending: true }), rateLimit(services.limiters, 'key')],
    preValidation: async (request) => {
      dropNullMembers(request.body);
    },
    handler: async (request, reply) => {
      const decoded = options.operation.decode(request.body as Body, request.headers);
      return runOperation(services, request, reply, options.operation, decoded);
    },
  });
}
