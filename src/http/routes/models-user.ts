import type { FastifyInstance } from 'fastify';
import { ModelListSchema, PageQuerySchema } from '../../catalogue/listing/model-list-schema.js';
import { readModelQuery } from '../../catalogue/listing/model-query.js';
import { authenticatedKey } from '../auth.js';
import { jsonReply } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';
import type { Services } from '../services.js';
import { sendModelList } from './models.js';

/**
 * `GET /models/user`: the unfiltered list as the key's workspace sees it: with the workspace's
 * routing default `zdr: true`, models with no zero-retention endpoint are left out. Only `limit`
 * and `offset` are read.
 */
export function registerModelsUserRoute(app: FastifyInstance, services: Services): void {
  app.get('/models/user', {
    schema: {
      operationId: 'listUserModels',
      summary: 'Served models as the key\'s workspace may use them',
      tags: [TAGS.models],
      answers: { success: { 200: jsonReply(ModelListSchema, 'The served models, newest first, narrowed by the workspace\'s `zdr` default') }, errors: [400], query: PageQuerySchema },
    },
  }, async (request, reply) => {
    const query = readModelQuery(request.query as Record<string, unknown>, { pageOnly: true });
    if (authenticatedKey(request).routingDefaults?.zdr === true) query.zdr = true;
    return sendModelList(services, query, request, reply);
  });
}
