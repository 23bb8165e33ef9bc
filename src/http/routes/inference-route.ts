import type { FastifyInstance, preValidationAsyncHookHandler } from 'fastify';
import type { Dialect } from '../../inference/dialects.js';
import { runInference } from '../../inference/run-inference.js';
import type { Services } from '../services.js';
import type { RouteAnswers } from '../openapi/route-answers.js';
import { inferenceCall, writeAnswer } from '../inference/http-call.js';

export interface InferenceRouteOptions {
  url: string;
  summary: string;
  /** The operation's id and tag in the OpenAPI document. */
  operationId: string;
  tag: string;
  /** What it answers, for the document. */
  answers: RouteAnswers;
  dialect: Dialect;
  /** Turns a body read in another form (a multipart form) into the one the dialect admits. */
  preValidation?: preValidationAsyncHookHandler;
  /** The largest JSON body, where not the server's `server.body_limit_bytes`. */
  bodyLimit?: number;
}

/** The dialect admits the body itself (see dialects/shared/admission.ts): the framework checks nothing twice. */
const ADMITTED_BY_DIALECT = () => () => true;

/**
 * Registers one dialect's inference route on the pipeline's one entry: generation id, key and rate
 * limit (the scope's guard), then admit → plan → hold → answer → settle, every outcome recorded.
 */
export function inferenceRoute(app: FastifyInstance, services: Services, options: InferenceRouteOptions): void {
  const { dialect } = options;
  const encoders = dialect.kind === 'conversation' ? dialect.encoders : undefined;
  app.post(options.url, {
    // A dialect with its own envelope for refused streams gets its admission refusals once the body
    // is read (see scopes.ts), so a refused key or rate limit on `stream: true` answers in it too.
    config: {
      generationId: 'record',
      ...(encoders?.streamRefusalBody && { streamRefusalBody: encoders.streamRefusalBody }),
      ...(encoders?.errorBody && { errorBody: encoders.errorBody }),
    },
    schema: { operationId: options.operationId, summary: options.summary, tags: [options.tag], body: dialect.schema, answers: options.answers },
    validatorCompiler: ADMITTED_BY_DIALECT,
    ...(options.preValidation && { preValidation: options.preValidation }),
    ...(options.bodyLimit !== undefined && { bodyLimit: options.bodyLimit }),
    handler: async (request, reply) => {
      const answer = await runInference(services, inferenceCall(request, reply, services), dialect, request.body, request.headers);
      return writeAnswer(reply, answer, services.settings.keepAliveMs);
    },
  });
}
