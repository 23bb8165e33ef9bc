import type { FastifyInstance } from 'fastify';
import { embeddingsModelRecords } from '../../catalogue/embeddings-models.js';
import type { EmbeddingsAsk, EmbeddingsResult } from '../../core/embeddings.js';
import { decodeEmbeddingsRequest } from '../../dialects/embeddings/decode.js';
import { encodeEmbeddingsReply } from '../../dialects/embeddings/encode.js';
import { EmbeddingsRequestSchema, type EmbeddingsRequestBody } from '../../dialects/embeddings/schema.js';
import { embeddingsAdapters } from '../../upstream/operation-registry.js';
import type { OperationBinding } from '../../inference/operation-binding.js';
import type { Services } from '../services.js';
import { operationRoute } from './operation-route.js';
import { requireKey } from '../auth.js';
import { rateLimit } from '../rate-limit.js';

const embeddingsOperation: OperationBinding<EmbeddingsRequestBody, EmbeddingsAsk, EmbeddingsResult> = {
  decode: decodeEmbeddingsRequest,
  adapters: embeddingsAdapters,
  usage: (result) => (result.usage.promptTokens === undefined ? {} : { promptTokens: result.usage.promptTokens }),
  upstreamId: (result) => result.upstreamId,
  encode: encodeEmbeddingsReply,
};

/** POST /embeddings, and GET /embeddings/models: the embedding models with their summaries. */
export function registerEmbeddingsRoute(app: FastifyInstance, services: Services): void {
  app.get('/embeddings/models', {
    schema: { summary: 'Embedding models', security: [{ bearer: [] }] },
    onRequest: [requireKey(services.keys, { spending: false }), rateLimit(services.limiters, 'key')],
  }, async () => ({ data: embeddingsModelRecords(services.catalogue.current()) }));
  operationRoute(app, services, {
    url: '/embeddings',
    summary: 'Vectors for text, token arrays or multimodal items',
    bodySchema: EmbeddingsRequestSchema,
    operation: embeddingsOperation,
  });
}
