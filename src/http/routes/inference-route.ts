import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { CoreRequest } from '../../core/request.js';
import type { HeaderBag } from '../../dialects/shared/request-headers.js';
import type { DialectBinding } from '../inference/dialect-binding.js';
import type { Services } from '../services.js';
import { assignGenerationId } from '../generation-id.js';
import { requireKey } from '../auth.js';
import { dropNullMembers } from '../null-members.js';
import { rateLimit } from '../rate-limit.js';
import { prepareInference } from '../inference/prepare.js';
import { runComplete } from '../inference/run-complete.js';
import { runStream } from '../inference/run-stream.js';

export interface InferenceRouteOptions<Body> {
  url: string;
  summary: string;
  bodySchema: TSchema;
  decode(body: Body, headers: HeaderBag): CoreRequest;
  dialect: DialectBinding;
}

/**
 * Registers one dialect's inference route on the shared pipeline: generation id, key, body
 * schema, then decode → plan → hold → execute → encode → settle.
 */
export function inferenceRoute<Body>(app: FastifyInstance, services: Services, options: InferenceRouteOptions<Body>): void {
  app.post(options.url, {
    config: options.dialect.streamRefusalBody ? { streamRefusalBody: options.dialect.streamRefusalBody } : {},
    schema: { summary: options.summary, body: options.bodySchema, security: [{ bearer: [] }] },
    onRequest: [assignGenerationId, requireKey(services.keys, { spending: true }), rateLimit(services.limiters, 'key')],
    preValidation: async (request) => {
      dropNullMembers(request.body);
    },
    handler: async (request, reply) => {
      const core = options.decode(request.body as Body, request.headers);
      const prepared = await prepareInference(services, request, core);
      if (core.stream) return runStream(services, prepared, reply, options.dialect);
      return runComplete(services, prepared, reply, options.dialect);
    },
  });
}
