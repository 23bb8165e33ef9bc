import type { FastifyInstance } from 'fastify';
import type { RerankAsk, RerankResult } from '../../core/rerank.js';
import { decodeRerankRequest } from '../../dialects/rerank/decode.js';
import { encodeRerankReply } from '../../dialects/rerank/encode.js';
import { RerankRequestSchema, type RerankRequestBody } from '../../dialects/rerank/schema.js';
import { rerankAdapters } from '../../upstream/operation-registry.js';
import type { OperationBinding } from '../../inference/operation-binding.js';
import type { Services } from '../services.js';
import { operationRoute } from './operation-route.js';

const rerankOperation: OperationBinding<RerankRequestBody, RerankAsk, RerankResult> = {
  decode: decodeRerankRequest,
  adapters: rerankAdapters,
  usage: ({ usage }) => ({
    ...(usage.totalTokens !== undefined && { promptTokens: usage.totalTokens }),
    ...(usage.searchUnits !== undefined && { searchUnits: usage.searchUnits }),
  }),
  upstreamId: (result) => result.upstreamId,
  encode: encodeRerankReply,
};

export function registerRerankRoute(app: FastifyInstance, services: Services): void {
  operationRoute(app, services, {
    url: '/rerank',
    summary: 'Relevance score per document',
    bodySchema: RerankRequestSchema,
    operation: rerankOperation,
  });
}
