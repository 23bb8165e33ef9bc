import type { FastifyReply } from 'fastify';

/** Headers set before the reply was taken over (generation id, rate limits), flattened for `writeHead`. */
export function headersSoFar(reply: FastifyReply): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : String(value);
  }
  return headers;
}
