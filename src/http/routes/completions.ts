import type { FastifyInstance } from 'fastify';
import { CompletionsRequestSchema, type CompletionsRequestBody } from '../../dialects/completions/schema.js';
import { decodeCompletionsRequest } from '../../dialects/completions/decode.js';
import { completionsDialect } from '../../dialects/completions/binding.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';
import { COMPLETIONS_STREAM_EVENTS, TextCompletionSchema } from '../../dialects/completions/reply-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { wholeOrStreamed } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

export function registerCompletionsRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute<CompletionsRequestBody>(app, services, {
    url: '/completions',
    summary: 'Text completion, optionally streamed',
    operationId: 'createCompletion',
    tag: TAGS.completions,
    bodySchema: CompletionsRequestSchema,
    answers: { success: { 200: wholeOrStreamed(TextCompletionSchema, 'The text completion', COMPLETIONS_STREAM_EVENTS) }, errors: INFERENCE_REFUSALS },
    decode: (body, headers) => decodeCompletionsRequest(body, headers),
    dialect: completionsDialect,
  });
}
