import type { onRequestAsyncHookHandler } from 'fastify';
import { newGenerationId } from '../core/generation-id.js';

/** Assigns the generation id first thing, so every inference reply (errors included) carries it. */
export const assignGenerationId: onRequestAsyncHookHandler = async (request, reply) => {
  const id = newGenerationId();
  request.generationId = id;
  reply.header('x-generation-id', id);
};
