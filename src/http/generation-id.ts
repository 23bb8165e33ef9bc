import type { onRequestAsyncHookHandler } from 'fastify';
import { newGenerationId } from '../core/generation-id.js';

/** Assigns the generation id first thing, so every inference reply (errors included) carries it. */
export const assignGenerationId: onRequestAsyncHookHandler = async (request, reply) => {
  const id = newGenerationId();
  request.generationId = id;
  reply.header('x-generation-id', id);
};

/**
 * Sends a fresh X-Generation-Id on a route that answers about inference without generating
 * (`/messages/count_tokens`): the header every inference response carries, with no record behind it.
 */
export const assignCorrelationId: onRequestAsyncHookHandler = async (_request, reply) => {
  reply.header('x-generation-id', newGenerationId());
};
