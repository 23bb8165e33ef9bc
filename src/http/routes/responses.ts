import type { FastifyInstance } from 'fastify';
import { ResponsesRequestSchema, type ResponsesRequestBody } from '../../dialects/responses/schema.js';
import { decodeResponsesRequest } from '../../dialects/responses/decode.js';
import { encodeResponsesReply } from '../../dialects/responses/encode-reply.js';
import { ResponsesStreamWriter } from '../../dialects/responses/encode-stream.js';
import { responsesStreamRefusal } from '../../dialects/responses/failure.js';
import type { DialectBinding } from '../../dialects/shared/dialect-binding.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';

const responsesDialect: DialectBinding = {
  encodeReply: encodeResponsesReply,
  createStreamWriter: (meta, request) => new ResponsesStreamWriter(meta, request),
  streamRefusalBody: responsesStreamRefusal,
};

export function registerResponsesRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute<ResponsesRequestBody>(app, services, {
    url: '/responses',
    summary: 'Responses dialect completion, optionally streamed',
    bodySchema: ResponsesRequestSchema,
    decode: (body, headers) => decodeResponsesRequest(body, headers),
    dialect: responsesDialect,
  });
}
