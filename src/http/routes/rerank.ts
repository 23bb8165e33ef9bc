import type { FastifyInstance } from 'fastify';
import type { RerankAsk, RerankResult } from '../../core/rerank.js';
import { decodeRerankRequest } from '../../dialects/rerank/decode.js';
import { RerankRequestSchema, type RerankRequestBody } from '../../dialects/rerank/schema.js';
import { rerankOperation } from '../../inference/operations/rerank.js';
import type { Services } from '../services.js';
import { operationRoute } from './operation-route.js';
import { RerankReplySchema } from '../../dialects/rerank/reply-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { inferenceReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

export function registerRerankRoute(app: FastifyInstance, services: Services): void {
  operationRoute<RerankRequestBody, RerankAsk, RerankResult>(app, services, {
    url: '/rerank',
    summary: 'Relevance score per document',
    operationId: 'createRerank',
    tag: TAGS.rerank,
    bodySchema: RerankRequestSchema,
    answers: { success: { 200: inferenceReply(RerankReplySchema, 'The documents\' scores, highest first') }, errors: INFERENCE_REFUSALS },
    decode: decodeRerankRequest,
    operation: rerankOperation,
  });
}
