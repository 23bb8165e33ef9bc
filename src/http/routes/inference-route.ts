import type { FastifyInstance } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import type { CoreRequest } from '../../core/request.js';
import type { HeaderBag } from '../../dialects/shared/request-headers.js';
import type { DialectBinding } from '../../dialects/shared/dialect-binding.js';
import { answerStream } from '../../inference/answer-stream.js';
import { answerWhole } from '../../inference/answer-whole.js';
import type { Services } from '../services.js';
import type { RouteAnswers } from '../openapi/route-answers.js';
import { dropNullMembers } from '../null-members.js';
import { prepareCall, sendWhole } from '../inference/prepared-call.js';
import { writeStream } from '../inference/write-stream.js';

export interface InferenceRouteOptions<Body> {
  url: string;
  summary: string;
  /** The operation's id and tag in the OpenAPI document. */
  operationId: string;
  tag: string;
  bodySchema: TSchema;
  /** What it answers, for the document. */
  answers: RouteAnswers;
  decode(body: Body, headers: HeaderBag): CoreRequest;
  dialect: DialectBinding;
}

/**
 * Registers one dialect's inference route on the shared pipeline: generation id, key, body
 * schema, then decode → plan → hold → execute → encode → settle.
 */
export function inferenceRoute<Body>(app: FastifyInstance, services: Services, options: InferenceRouteOptions<Body>): void {
  app.post(options.url, {
    // A dialect with its own envelope for refused streams gets its admission refusals once the body
    // is read (see scopes.ts), so a refused key or rate limit on `stream: true` answers in it too.
    config: {
      generationId: 'record',
      ...(options.dialect.streamRefusalBody && { streamRefusalBody: options.dialect.streamRefusalBody }),
      ...(options.dialect.errorBody && { errorBody: options.dialect.errorBody }),
    },
    schema: { operationId: options.operationId, summary: options.summary, tags: [options.tag], body: options.bodySchema, answers: options.answers },
    preValidation: async (request) => {
      dropNullMembers(request.body);
    },
    handler: async (request, reply) => {
      const core = options.decode(request.body as Body, request.headers);
      const prepared = await prepareCall(services, { request, reply }, core);
      if (core.stream) return writeStream(reply, answerStream(services, prepared, options.dialect), services.settings.keepAliveMs);
      return sendWhole(reply, await answerWhole(services, prepared, options.dialect));
    },
  });
}
