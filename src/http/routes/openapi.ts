import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { TAGS } from '../openapi/tags.js';
import { jsonReply } from '../openapi/route-answers.js';

const DocumentSchema = Type.Object({ openapi: Type.Literal('3.1.0'), info: Type.Object({}), paths: Type.Object({}) });

/** `GET /openapi.json` — this API's OpenAPI 3.1 document, no key. */
export function registerOpenApiRoute(app: FastifyInstance): void {
  app.get('/openapi.json', {
    schema: {
      operationId: 'getOpenApiDocument',
      summary: 'This API\'s OpenAPI 3.1 document',
      tags: [TAGS.service],
      answers: { success: { 200: jsonReply(DocumentSchema, 'The OpenAPI document') }, errors: [] },
    },
  }, async () => app.swagger());
}
