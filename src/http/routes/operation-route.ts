import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { DecodedOperation } from '../../core/operation.js';
import type { HeaderBag } from '../../dialects/shared/request-headers.js';
import { answerOperation } from '../../inference/answer-operation.js';
import type { OperationBinding } from '../../inference/operation-binding.js';
import type { Services } from '../services.js';
import { assignGenerationId } from '../generation-id.js';
import { requireKey } from '../auth.js';
import { dropNullMembers } from '../null-members.js';
import { rateLimit } from '../rate-limit.js';
import { prepareCall, sendWhole } from '../inference/prepared-call.js';

export interface OperationRouteOptions<Body, Ask, Result> {
  url: string;
  summary: string;
  bodySchema: TSchema;
  decode(body: Body, headers: HeaderBag): DecodedOperation<Ask>;
  operation: OperationBinding<Ask, Result>;
}

/**
 * Registers a non-conversation route (embeddings, rerank, typed decisions) on the same seams as
 * chat: generation id, key, rate limit, body schema, then decode → plan → hold → call with failover
 * → settle → reply.
 */
export function operationRoute<Body, Ask, Result>(app: FastifyInstance, services: Services, options: OperationRouteOptions<Body, Ask, Result>): void {
  app.post(options.url, {
    schema: { summary: options.summary, body: options.bodySchema, security: [{ bearer: [] }] },
    onRequest: [assignGenerationId, requireKey(services.keys, { spending: true }), rateLimit(services.limiters, 'key')],
    preValidation: async (request) => {
      dropNullMembers(request.body);
    },
    handler: async (request, reply) => {
      const decoded = options.decode(request.body as Body, request.headers);
      const prepareOptions = { facts: decoded.facts, ...options.operation.prepareOptions?.(decoded.ask) };
      const prepared = await prepareCall(services, { request, reply }, decoded.request, prepareOptions);
      return sendWhole(reply, await answerOperation(services, prepared, options.operation, decoded.ask));
    },
  });
}
