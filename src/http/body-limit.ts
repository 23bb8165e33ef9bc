import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError } from '../core/errors.js';

/**
 * How much of an oversized body is read and dropped, at most, before the connection is cut anyway:
 * enough for a client that sends its whole body before reading the answer, not an open tap.
 */
const DRAIN_BYTES = 64 * 1024 * 1024;
const DRAIN_MS = 10_000;

/** The 413 for a body over the configured limit, naming that limit. */
export function bodyTooLargeError(limitBytes: number): GatewayError {
  return new GatewayError('payload_too_large', `body: larger than the ${describeLimit(limitBytes)} limit`);
}

/** `8 MiB (8388608-byte)`: a size limit as messages name it. */
export function describeLimit(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB (${bytes}-byte)`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB (${bytes}-byte)`;
  return `${bytes}-byte`;
}

/**
 * Answers a request refused while the caller may still be sending its body (a body over the limit,
 * a request arriving during the restart drain), then closes the connection. Fastify refuses a body
 * for its size before reading when Content-Length is over the limit, or stops reading once the bytes
 * pass it; left to Node, the reply would end with `Connection: close` and the socket be destroyed
 * with the rest of the body unread, so the caller, still writing, meets a reset (EPIPE) instead of
 * the answer. Here the whole answer (with its Content-Length) is written at once, the rest of the
 * body is read and dropped, and only then does the reply end and the connection close, cleanly. A
 * caller sending far more, or for too long, is cut off after DRAIN_BYTES or DRAIN_MS.
 */
export function sendWhileDraining(request: FastifyRequest, reply: FastifyReply, error: GatewayError, errorBody: unknown): FastifyReply {
  const body = JSON.stringify(errorBody);
  const response = reply.raw;
  reply.hijack();
  const headersSoFar = Object.entries(reply.getHeaders()).filter(([, value]) => value !== undefined);
  response.writeHead(error.status, {
    ...Object.fromEntries(headersSoFar),
    ...error.headers,
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    connection: 'close',
  });
  response.write(body);
  drainThenEnd(request.raw, response);
  return reply;
}

function drainThenEnd(incoming: IncomingMessage, response: ServerResponse): void {
  if (incoming.readableEnded || incoming.destroyed) {
    response.end();
    return;
  }
  let drained = 0;
  const settle = (cut: boolean) => {
    clearTimeout(timer);
    incoming.off('data', onData);
    incoming.off('end', onEnd);
    incoming.off('close', onEnd);
    incoming.off('error', onEnd);
    if (cut) response.destroy();
    else response.end();
  };
  const onData = (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > DRAIN_BYTES) settle(true);
  };
  const onEnd = () => settle(false);
  const timer = setTimeout(() => settle(true), DRAIN_MS).unref();
  incoming.on('data', onData);
  incoming.once('end', onEnd);
  incoming.once('close', onEnd);
  incoming.once('error', onEnd);
  incoming.resume();
}
