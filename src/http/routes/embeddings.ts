import type { FastifyInstance } from 'fastify';
import { embeddingsModelRecords } from '../../catalogue/listing/embeddings-models.js';
import type { EmbeddingsAsk, EmbeddingsResult } from '../../core/embeddings.js';
import { decodeEmbeddingsRequest } from '../../dialects/embeddings/decode.js';
import { EmbeddingsRequestSchema, type EmbeddingsRequestBody } from '../../dialects/embeddings/schema.js';
import { embeddingsOperation } from '../../inference/operations/embeddings.js';
import type { Services } from '../services.js';
import { operationRoute } from './operation-route.js';

/** POST /embeddings, and GET /embeddings/models: the embedding models with their summaries. */
export function registerEmbeddingsRoute(app: FastifyInstance, services: Services): void {
  app.get('/embeddings/models', {
    schema: { summary: 'Embedding models', security: [{ bearer: [] }] },
  }, async () => ({ data: embeddingsModelRecords(services.catalogue.current()) }));
  operationRoute<EmbeddingsRequestBody, EmbeddingsAsk, EmbeddingsResult>(app, services, {
    url: '/embeddings',
    summary: 'Vectors for text, token arrays or multimodal items',
    bodySchema: EmbeddingsRequestSchema,
    decode: decodeEmbeddingsRequest,
    operation: embeddingsOperation,
  });
}
