import type { FastifyInstance } from 'fastify';
import { ChatRequestSchema, type ChatRequestBody } from '../../dialects/chat/schema.js';
import { decodeChatRequest } from '../../dialects/chat/decode.js';
import { chatDialect } from '../../dialects/chat/binding.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';

export function registerChatRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute<ChatRequestBody>(app, services, {
    url: '/chat/completions',
    summary: 'Chat completion, optionally streamed',
    bodySchema: ChatRequestSchema,
    decode: (body, headers) => decodeChatRequest(body, headers),
    dialect: chatDialect,
  });
}
