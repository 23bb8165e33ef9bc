import type { FastifyInstance } from 'fastify';
import type { RerankAsk, RerankResult } from '../../core/rerank.js';
import { decodeRerankRequest } from '../../dialects/rerank/decode.js';
import { RerankRequestSchema, type RerankRequestBody } from '../../dialects/rerank/schema.js';
import { rerankOperation } from '../../inference/operations/rerank.js';
import type { Services } from '../services.js';
import { operationRoute } from './operation-route.js';

export function registerRerankRoute(app: FastifyInstance, services: Services): void {
  operationRoute<RerankRequestBody, RerankAsk, RerankResult>(app, services, {
    url: '/rerank',
    summary: 'Relevance score per document',
    bodySchema: RerankRequestSchema,
    decode: decodeRerankRequest,
    operation: rerankOperation,
  });
}
