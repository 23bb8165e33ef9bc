import type { FastifyInstance } from 'fastify';
import { CompletionsRequestSchema, type CompletionsRequestBody } from '../../dialects/completions/schema.js';
import { decodeCompletionsRequest } from '../../dialects/completions/decode.js';
import { encodeCompletionsReply } from '../../dialects/completions/encode-reply.js';
import { CompletionsStreamWriter } from '../../dialects/completions/encode-stream.js';
import type { DialectBinding } from '../../dialects/shared/dialect-binding.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';

const completionsDialect: DialectBinding = {
  encodeReply: encodeCompletionsReply,
  createStreamWriter: (meta, request) => new CompletionsStreamWriter(meta, request),
};

export function registerCompletionsRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute<CompletionsRequestBody>(app, services, {
    url: '/completions',
    summary: 'Text completion, optionally streamed',
    bodySchema: CompletionsRequestSchema,
    decode: (body, headers) => decodeCompletionsRequest(body, headers),
    dialect: completionsDialect,
  });
}
