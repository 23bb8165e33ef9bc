import type { ServerResponse } from 'node:http';
import type { FastifyReply } from 'fastify';
import type { RelayPart } from '../../inference/answer-relay.js';
import { headersSoFar } from './reply-headers.js';
import { drained } from './drained.js';

/**
 * Writes a binary answer as it arrives (no Content-Length), with back-pressure. A failure before
 * the first byte is thrown to the error handler as usual; a body that breaks off later closes the
 * connection without the terminating chunk, so the caller sees an incomplete body.
 */
export async function writeRelay(reply: FastifyReply, parts: AsyncIterable<RelayPart>): Promise<void> {
  const iterator = parts[Symbol.asyncIterator]();
  let next = await iterator.next();
  reply.hijack();
  const response = reply.raw;
  for (; !next.done; next = await iterator.next()) {
    const part = next.value;
    switch (part.type) {
      case 'open':
        response.writeHead(200, { ...headersSoFar(reply), ...part.headers });
        break;
      case 'bytes':
        if (!response.destroyed && !response.write(part.chunk)) await drained(response);
        break;
      case 'broken':
        breakOff(response);
        return;
      default: {
        const unreachable: never = part;
        throw new Error(`unknown relay part ${String(unreachable)}`);
      }
    }
  }
  if (!response.destroyed) response.end();
}

/**
 * Ends a body that broke off so the caller can tell: the audio written so far is flushed, then the
 * connection closes without the terminating chunk, which HTTP clients report as an incomplete body.
 */
function breakOff(response: ServerResponse): void {
  const socket = response.socket;
  if (!socket || socket.destroyed) {
    response.destroy();
    return;
  }
  socket.end(() => socket.destroy());
}
