import type { FastifyInstance } from 'fastify';
import { CountTokensRequestSchema, type CountTokensRequestBody } from '../../dialects/messages/schema.js';
import { decodeConversation } from '../../dialects/messages/conversation.js';
import { decodeTools } from '../../dialects/messages/tools.js';
import { resolveModels } from '../../core/planner/model-resolution.js';
import { estimatePromptTokens } from '../../core/token-estimate.js';
import { messagesErrorBody } from '../../dialects/messages/error-body.js';
import type { Services } from '../services.js';
import { dropNullMembers } from '../../dialects/shared/null-members.js';
import { DIALECTS } from '../../inference/dialects.js';
import { inferenceRoute } from './inference-route.js';
import { CountTokensReplySchema, MESSAGES_STREAM_EVENTS, MessageReplySchema, MessagesErrorSchema } from '../../dialects/messages/reply-schema.js';
import { BODY_REFUSALS, INFERENCE_REFUSALS } from '../openapi/error-replies.js';
import { jsonReply, wholeOrStreamed } from '../openapi/route-answers.js';
import { TAGS } from '../openapi/tags.js';

/**
 * POST /messages (the messages dialect over the shared pipeline) and POST /messages/count_tokens.
 * Every error either answers, streamed or not, is in the dialect's envelope, so clients written
 * for the Anthropic API can branch on `error.type`.
 */
export function registerMessagesRoutes(app: FastifyInstance, services: Services): void {
  inferenceRoute(app, services, {
    url: '/messages',
    summary: 'Messages dialect completion, optionally streamed',
    operationId: 'createMessage',
    tag: TAGS.messages,
    answers: {
      success: { 200: wholeOrStreamed(MessageReplySchema, 'The message', MESSAGES_STREAM_EVENTS) },
      errors: [...INFERENCE_REFUSALS, 422],
      errorBody: MessagesErrorSchema,
    },
    dialect: DIALECTS.messages,
  });
  registerCountTokensRoute(app, services);
}

/**
 * The input tokens a messages request would be held for: system, messages and tool schemas as the
 * endpoint receives them, with the tokenizer the credit hold uses. Needs a key; charges nothing.
 */
function registerCountTokensRoute(app: FastifyInstance, services: Services): void {
  app.post('/messages/count_tokens', {
    schema: {
      operationId: 'countMessageTokens',
      summary: 'Estimated input-token count for a would-be messages request',
      tags: [TAGS.messages],
      body: CountTokensRequestSchema,
      answers: {
        success: { 200: jsonReply(CountTokensReplySchema, 'The estimated input tokens') },
        errors: [...BODY_REFUSALS, 404],
        errorBody: MessagesErrorSchema,
      },
    },
    config: { generationId: 'correlate', errorBody: messagesErrorBody },
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
