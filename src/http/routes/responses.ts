import type { FastifyInstance } from 'fastify';
import { ResponsesRequestSchema, type ResponsesRequestBody } from '../../dialects/responses/schema.js';
import { decodeResponsesRequest } from '../../dialects/responses/decode.js';
import { responsesDialect } from '../../dialects/responses/binding.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';

export function registerResponsesRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute<ResponsesRequestBody>(app, services, {
    url: '/responses',
    summary: 'Responses dialect completion, optionally streamed',
    bodySchema: ResponsesRequestSchema,
    decode: (body, headers) => decodeResponsesRequest(body, headers),
    dialect: responsesDialect,
  });
}
