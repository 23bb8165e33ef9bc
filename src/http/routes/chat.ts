import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import { CHAT_STREAM_EVENTS, ChatCompletionSchema } from '../../dialects/chat/reply-schema.js';
import { INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { wholeOrStreamed } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

export function registerChatRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute(app, services, {
    url: '/chat/completions',
    summary: 'Chat completion, optionally streamed',
    operationId: 'createChatCompletion',
    tag: TAGS.completions,
    answers: { success: { 200: wholeOrStreamed(ChatCompletionSchema, 'The chat completion', CHAT_STREAM_EVENTS) }, errors: INFERENCE_REFUSALS },
    dialect: DIALECTS.chat,
  });
}
