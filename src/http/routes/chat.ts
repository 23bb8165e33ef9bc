import type { FastifyInstance } from 'fastify';
import { ChatRequestSchema, type ChatRequestBody } from '../../dialects/chat/schema.js';
import { decodeChatRequest } from '../../dialects/chat/decode.js';
import { encodeChatReply } from '../../dialects/chat/encode-reply.js';
import { ChatStreamWriter } from '../../dialects/chat/encode-stream.js';
import type { DialectBinding } from '../../dialects/shared/dialect-binding.js';
import type { Services } from '../services.js';
import { inferenceRoute } from './inference-route.js';

const chatDialect: DialectBinding = {
  encodeReply: encodeChatReply,
  createStreamWriter: (meta) => new ChatStreamWriter(meta),
};

export function registerChatRoute(app: FastifyInstance, services: Services): void {
  inferenceRoute<ChatRequestBody>(app, services, {
    url: '/chat/completions',
    summary: 'Chat completion, optionally streamed',
    bodySchema: ChatRequestSchema,
    decode: (body, headers) => decodeChatRequest(body, headers),
    dialect: chatDialect,
  });
}
