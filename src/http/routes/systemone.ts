import type { FastifyInstance } from 'fastify';
import { SystemOneRequestSchema, type SystemOneRequestBody } from '../../dialects/systemone/schema.js';
import { decodeSystemOneRequest, type DecisionCall } from '../../dialects/systemone/decode.js';
import { decisionOperation, decisionsOperation, type DecisionResult } from '../../inference/operations/decisions.js';
import type { Services } from '../services.js';
import { operationRoute } from './operation-route.js';
import { DecisionReplySchema } from '../../dialects/systemone/reply-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { inferenceReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

/** POST /systemone: typed answers (choice, score, noul) to questions about a supplied state. */
export function registerSystemOneRoute(app: FastifyInstance, services: Services): void {
  operationRoute<SystemOneRequestBody, DecisionCall, DecisionResult>(app, services, {
    url: '/systemone',
    summary: 'Typed answers to questions about a supplied state',
    operationId: 'createDecisions',
    tag: TAGS.decisions,
    bodySchema: SystemOneRequestSchema,
    answers: { success: { 200: inferenceReply(DecisionReplySchema, 'Every question\'s typed answer') }, errors: INFERENCE_REFUSALS },
    decode: (body, headers) => decisionOperation(decodeSystemOneRequest(body, headers)),
    operation: decisionsOperation,
  });
}
