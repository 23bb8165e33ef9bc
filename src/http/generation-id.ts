import type { FastifyReply, FastifyRequest } from 'fastify';
import { newGenerationId } from '../core/generation-id.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The X-Generation-Id an inference route sends before anything can fail: `record` for a request
     * recorded as a generation under it, `correlate` for one that answers about inference without
     * generating (`/messages/count_tokens`: the header, no record behind it).
     */
    generationId?: 'record' | 'correlate';
  }
}

/** Assigns the route's generation id first thing, so every inference reply (errors included) carries it. */
export function assignGenerationId(request: FastifyRequest, reply: FastifyReply): void {
  const kind = request.routeOptions.config.generationId;
  if (kind === undefined) return;
  const id = newGenerationId();
  if (kind === 'record') request.generationId = id;
  reply.header('x-generation-id', id);
}
