import type { FastifyReply } from 'fastify';
import type { StreamOutput } from '../../inference/stream-output.js';
import type { WholeReply } from '../../inference/reply.js';
import { SseSocket } from './sse-socket.js';
import { headersSoFar } from './reply-headers.js';

/**
 * Writes a streamed answer: keep-alive comments while nothing commits, the stream's headers when it
 * does, each write with back-pressure, and a refusal as an HTTP error while nothing was written
 * (in-band once a keep-alive opened the stream).
 */
export async function writeStream(reply: FastifyReply, writeTo: (output: StreamOutput) => Promise<void>, keepAliveMs: number): Promise<void> {
  const socket = new SseSocket(reply.raw, headersSoFar(reply), keepAliveMs);
  reply.hijack();
  socket.startKeepAlive();
  try {
    await writeTo({
      open: (headers) => socket.open(headers),
      write: (text) => socket.write(text),
      refuse: (refusal, inBand) => refuse(socket, reply, refusal, inBand),
    });
  } finally {
    socket.end();
  }
}

function refuse(socket: SseSocket, reply: FastifyReply, refusal: WholeReply, inBand: string): void {
  if (socket.isOpen) {
    socket.end(inBand);
    return;
  }
  socket.stop();
  if (socket.isClosed) return;
  reply.raw.writeHead(refusal.status, { ...headersSoFar(reply), ...refusal.headers, 'content-type': 'application/json; charset=utf-8' });
  reply.raw.end(JSON.stringify(refusal.body));
}
