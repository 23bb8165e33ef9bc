import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import { DecisionReplySchema } from '../../dialects/systemone/reply-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { inferenceReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

/** POST /systemone: typed answers (choice, score, noul) to questions about a supplied state. */
export function registerSystemOneRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute(app, services, {
    url: '/systemone',
    summary: 'Typed answers to questions about a supplied state',
    operationId: 'createDecisions',
    tag: TAGS.decisions,
    answers: { success: { 200: inferenceReply(DecisionReplySchema, 'Every question\'s typed answer') }, errors: INFERENCE_REFUSALS },
    dialect: DIALECTS.decisions,
  });
}
