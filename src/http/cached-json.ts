import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface Encodings {
  identity: Buffer;
  gzip?: Buffer;
}

const encoded = new WeakMap<object, Encodings>();

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
 * Sends a large JSON text that lives as long as `owner` (a catalogue listing, say): encoded to bytes
 * once, and gzipped once for the callers that take gzip, so a repeated read costs a socket write.
 */
export function sendCachedJson(request: FastifyRequest, reply: FastifyReply, owner: object, text: string): FastifyReply {
  let encodings = encoded.get(owner);
  if (!encodings) {
    encodings = { identity: Buffer.from(text) };
    encoded.set(owner, encodings);
  }
  reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
  if (!acceptsGzip(request.headers['accept-encoding'])) return reply.send(encodings.identity);
  encodings.gzip ??= gzipSync(encodings.identity);
  return reply.header('content-encoding', 'gzip').send(encodings.gzip);
}
