import type { FastifyInstance } from 'fastify';
import { CompletionsRequestSchema, type CompletionsRequestBody } from '../../dialects/completions/schema.js';
import { decodeCompletionsRequest } from '../../dialects/completions/decode.js';
import { completionsDialect } from '../../dialects/completions/binding.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';

export function registerCompletionsRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute<CompletionsRequestBody>(app, services, {
    url: '/completions',
    summary: 'Text completion, optionally streamed',
    bodySchema: CompletionsRequestSchema,
    decode: (body, headers) => decodeCompletionsRequest(body, headers),
    dialect: completionsDialect,
  });
}
