import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import { RerankReplySchema } from '../../dialects/rerank/reply-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { inferenceReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

export function registerRerankRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute(app, services, {
    url: '/rerank',
    summary: 'Relevance score per document',
    operationId: 'createRerank',
    tag: TAGS.rerank,
    answers: { success: { 200: inferenceReply(RerankReplySchema, 'The documents\' scores, highest first') }, errors: INFERENCE_REFUSALS },
    dialect: DIALECTS.rerank,
  });
}
