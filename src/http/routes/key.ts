import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { authenticatedKey } from '../auth.js';
import { KeyInspectionSchema } from '../../accounts/key-inspection-schema.js';
import { TAGS } from '../openapi/tags.js';
import { dataReply } from '../openapi/route-answers.js';

/** `GET /key` — the key inspection record of the calling key. */
export function registerKeyRoute(app: FastifyInstance, services: Services): void {
  app.get('/key', {
    schema: {
      operationId: 'getKey',
      summary: 'Inspect the calling key',
      tags: [TAGS.keys],
      answers: { success: { 200: dataReply(KeyInspectionSchema, 'The key inspection record') }, errors: [] },
    },
  }, async (request) => ({ data: await services.keys.inspect(authenticatedKey(request)) }));
}
