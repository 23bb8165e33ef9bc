import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PreparedJson } from '../core/prepared-json.js';

/** True when `accept-encoding` takes gzip (and does not refuse it with `q=0`). */
export function acceptsGzip(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(',').some((part) => {
    const [coding = '', ...parameters] = part.trim().toLowerCase().split(';');
    const refused = parameters.some((parameter) => /^\s*q=0(\.0*)?\s*$/.test(parameter));
    return (coding.trim() === 'gzip' || coding.trim() === '*') && !refused;
  });
}

/**
 * Sends a large JSON reply prepared once (`PreparedJson`): its bytes, or its gzipped bytes to the
 * callers that take gzip, so a repeated read costs a socket write.
 */
export function sendPreparedJson(request: FastifyRequest, reply: FastifyReply, prepared: PreparedJson): FastifyReply {
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(prepared.bytes);
  return reply.header('content-encoding', 'gzip').send(prepared.gzipped);
}
