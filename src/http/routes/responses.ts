import type { FastifyInstance } from 'fastify';
import { Type } from '@sinclair/typebox';
import { ResponsesRequestSchema, type ResponsesRequestBody } from '../../dialects/responses/schema.js';
import { decodeResponsesRequest } from '../../dialects/responses/decode.js';
import { responsesDialect } from '../../dialects/responses/binding.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';
import { RESPONSES_STREAM_EVENTS, ResponseObjectSchema, ResponsesStreamRefusalSchema } from '../../dialects/responses/reply-schema.js';
import { ErrorEnvelopeSchema } from '../../core/error-envelope-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { wholeOrStreamed } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

export function registerResponsesRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute<ResponsesRequestBody>(app, services, {
    url: '/responses',
    summary: 'Responses dialect completion, optionally streamed',
    operationId: 'createResponse',
    tag: TAGS.completions,
    bodySchema: ResponsesRequestSchema,
    answers: {
      success: { 200: wholeOrStreamed(ResponseObjectSchema, 'The response object', RESPONSES_STREAM_EVENTS) },
      errors: INFERENCE_REFUSALS,
      // a streamed request refused before its stream committed answers in the dialect's own envelope
      errorBody: Type.Union([ErrorEnvelopeSchema, ResponsesStreamRefusalSchema]),
    },
    decode: (body, headers) => decodeResponsesRequest(body, headers),
    dialect: responsesDialect,
  });
}
