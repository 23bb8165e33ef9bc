import type { FastifyInstance } from 'fastify';
import { MessagesRequestSchema, CountTokensRequestSchema, type CountTokensRequestBody, type MessagesRequestBody } from '../../dialects/messages/schema.js';
import { decodeMessagesRequest } from '../../dialects/messages/decode.js';
import { decodeConversation } from '../../dialects/messages/conversation.js';
import { decodeTools } from '../../dialects/messages/tools.js';
import { encodeMessagesReply } from '../../dialects/messages/encode-reply.js';
import { MessagesStreamWriter } from '../../dialects/messages/encode-stream.js';
import { messagesErrorBody } from '../../dialects/messages/error-body.js';
import { refuseMessagesOutput } from '../../dialects/messages/output-refusal.js';
import { resolveModels } from '../../core/planner/model-resolution.js';
import { estimatePromptTokens } from '../../core/token-estimate.js';
import type { DialectBinding } from '../inference/dialect-binding.js';
import type { Services } from '../services.js';
import { assignCorrelationId } from '../generation-id.js';
import { requireKey } from '../auth.js';
import { dropNullMembers } from '../null-members.js';
import { rateLimit } from '../rate-limit.js';
import { inferenceRoute } from './inference-route.js';

const messagesDialect: DialectBinding = {
  encodeReply: encodeMessagesReply,
  createStreamWriter: (meta) => new MessagesStreamWriter(meta),
  streamRefusalBody: messagesErrorBody,
  refuseOutput: refuseMessagesOutput,
};

/**
 * POST /messages (the messages dialect over the shared pipeline) and POST /messages/count_tokens.
 * Every error either answers, streamed or not, is in the dialect's envelope, so clients written
 * for the Anthropic API can branch on `error.type`.
 */
export function registerMessagesRoutes(app: FastifyInstance, services: Services): void {
  void app.register(async (scope) => {
    scope.addHook('onRoute', (route) => {
      route.config = { ...route.config, errorBody: messagesErrorBody };
    });
    inferenceRoute<MessagesRequestBody>(scope, services, {
      url: '/messages',
      summary: 'Messages dialect completion, optionally streamed',
      bodySchema: MessagesRequestSchema,
      decode: (body, headers) => decodeMessagesRequest(body, headers),
      dialect: messagesDialect,
    });
    registerCountTokensRoute(scope, services);
  });
}

/**
 * The input tokens a messages request would be held for: system, messages and tool schemas as the
 * endpoint receives them, with the tokenizer the credit hold uses. Needs a key; charges nothing.
 */
function registerCountTokensRoute(app: FastifyInstance, services: Services): void {
  app.post('/messages/count_tokens', {
    schema: { summary: 'Estimated input-token count for a would-be messages request', body: CountTokensRequestSchema, security: [{ bearer: [] }] },
    onRequest: [assignCorrelationId, requireKey(services.keys, { spending: true }), rateLimit(services.limiters, 'key')],
    preValidation: async (request) => {
      dropNullMembers(request.body);
    },
    handler: async (request) => {
      const body = request.body as CountTokensRequestBody;
      resolveModels(services.catalogue.current(), [body.model]);
      const messages = decodeConversation(body.system, body.messages);
      const tools = body.tools && body.tools.length > 0 ? decodeTools(body.tools) : undefined;
      return { input_tokens: estimatePromptTokens(messages, tools) };
    },
  });
}
