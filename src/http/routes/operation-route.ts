import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { DecodedOperation } from '../../core/decoded-operation.js';
import type { HeaderBag } from '../../dialects/shared/request-headers.js';
import { answerOperation } from '../../inference/answer-operation.js';
import type { OperationBinding } from '../../inference/operation-binding.js';
import type { Services } from '../services.js';
import type { RouteAnswers } from '../openapi/route-answers.js';
import { dropNullMembers } from '../null-members.js';
import { prepareCall, sendWhole } from '../inference/prepared-call.js';

export interface OperationRouteOptions<Body, Ask, Result> {
  url: string;
  summary: string;
  /** The operation's id and tag in the OpenAPI document. */
  operationId: string;
  tag: string;
  bodySchema: TSchema;
  /** What it answers, for the document. */
  answers: RouteAnswers;
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
    config: { generationId: 'record' },
    schema: { operationId: options.operationId, summary: options.summary, tags: [options.tag], body: options.bodySchema, answers: options.answers },
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
