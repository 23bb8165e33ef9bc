import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import type { Services } from '../services.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import { RESPONSES_STREAM_EVENTS, ResponseObjectSchema, ResponsesStreamRefusalSchema } from '../../dialects/responses/reply-schema.js';
import { ErrorEnvelopeSchema } from '../../core/error-envelope-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { wholeOrStreamed } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

export function registerResponsesRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute(app, services, {
    url: '/responses',
    summary: 'Responses dialect completion, optionally streamed',
    operationId: 'createResponse',
    tag: TAGS.completions,
    answers: {
      success: { 200: wholeOrStreamed(ResponseObjectSchema, 'The response object', RESPONSES_STREAM_EVENTS) },
      errors: INFERENCE_REFUSALS,
      // a streamed request refused before its stream committed answers in the dialect's own envelope
      errorBody: Type.Union([ErrorEnvelopeSchema, ResponsesStreamRefusalSchema]),
    },
    dialect: DIALECTS.responses,
  });
}
