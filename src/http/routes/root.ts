import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { TAGS } from '../openapi/tags.js';
import { jsonReply } from '../openapi/route-answers.js';

const LivenessSchema = Type.Object({ name: Type.String(), status: Type.Literal('ok') });

/** `GET /` — liveness, no key. */
export function registerRootRoute(app: FastifyInstance): void {
  app.get('/', {
    schema: {
      operationId: 'getLiveness',
      summary: 'Liveness',
      tags: [TAGS.service],
      answers: { success: { 200: jsonReply(LivenessSchema, 'The service is up') }, errors: [] },
    },
  }, async () => ({ name: 'switchyard', status: 'ok' }));
}
