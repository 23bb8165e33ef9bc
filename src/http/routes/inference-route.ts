import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { CoreRequest } from '../../core/request.js';
import type { HeaderBag } from '../../dialects/shared/request-headers.js';
import type { DialectBinding } from '../../dialects/shared/dialect-binding.js';
import { answerStream } from '../../inference/answer-stream.js';
import { answerWhole } from '../../inference/answer-whole.js';
import type { Services } from '../services.js';
import { assignGenerationId } from '../generation-id.js';
import { requireKey } from '../auth.js';
import { dropNullMembers } from '../null-members.js';
import { rateLimit } from '../rate-limit.js';
import { prepareCall, sendWhole } from '../inference/prepared-call.js';
import { writeStream } from '../inference/write-stream.js';

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
  const admission = [requireKey(services.keys, { spending: true }), rateLimit(services.limiters, 'key')];
  // A dialect with its own envelope for refused streams admits the key once the body is read, so a
  // refused key or rate limit on a `stream: true` request can answer in that envelope too.
  const admitAfterBody = options.dialect.streamRefusalBody !== undefined;
  app.post(options.url, {
    config: options.dialect.streamRefusalBody ? { streamRefusalBody: options.dialect.streamRefusalBody } : {},
    schema: { summary: options.summary, body: options.bodySchema, security: [{ bearer: [] }] },
    onRequest: admitAfterBody ? [assignGenerationId] : [assignGenerationId, ...admission],
    preValidation: [
      ...(admitAfterBody ? admission : []),
      async (request) => {
        dropNullMembers(request.body);
      },
    ],
    handler: async (request, reply) => {
      const core = options.decode(request.body as Body, request.headers);
      const prepared = await prepareCall(services, { request, reply }, core);
      if (core.stream) return writeStream(reply, answerStream(services, prepared, options.dialect), services.settings.keepAliveMs);
      return sendWhole(reply, await answerWhole(services, prepared, options.dialect));
    },
  });
}
