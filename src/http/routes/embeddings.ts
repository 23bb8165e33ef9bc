import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { embeddingsModelRecords } from '../../catalogue/listing/embeddings-models.js';
import { refuseQuery } from '../../catalogue/listing/model-query.js';
import type { Services } from '../services.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import { EmbeddingsReplySchema } from '../../dialects/embeddings/reply-schema.js';
import { ModelSummarySchema } from '../../catalogue/model-summary-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { dataReply, inferenceReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

/** GET /embeddings/models (public: a catalogue read): the embedding models with their summaries. */
export function registerEmbeddingsModelsRoute(app: FastifyInstance, services: Pick<Services, 'catalogue'>): void {
  app.get('/embeddings/models', {
    schema: {
      operationId: 'listEmbeddingsModels',
      summary: 'Embedding models',
      tags: [TAGS.embeddings],
      answers: { success: { 200: dataReply(Type.Array(ModelSummarySchema), 'The summaries of the served embedding models') }, errors: [400] },
    },
  }, async (request) => {
    refuseQuery(request.query as Record<string, unknown>);
    return { data: embeddingsModelRecords(services.catalogue.current()) };
  });
}

/** POST /embeddings. */
export function registerEmbeddingsRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute(app, services, {
    url: '/embeddings',
    summary: 'Vectors for text, token arrays or multimodal items',
    operationId: 'createEmbeddings',
    tag: TAGS.embeddings,
    answers: { success: { 200: inferenceReply(EmbeddingsReplySchema, 'One vector per input') }, errors: INFERENCE_REFUSALS },
    dialect: DIALECTS.embeddings,
  });
}
