import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import { COMPLETIONS_STREAM_EVENTS, TextCompletionSchema } from '../../dialects/completions/reply-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { wholeOrStreamed } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

export function registerCompletionsRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute(app, services, {
    url: '/completions',
    summary: 'Text completion, optionally streamed',
    operationId: 'createCompletion',
    tag: TAGS.completions,
    answers: { success: { 200: wholeOrStreamed(TextCompletionSchema, 'The text completion', COMPLETIONS_STREAM_EVENTS) }, errors: INFERENCE_REFUSALS },
    dialect: DIALECTS.completions,
  });
}
