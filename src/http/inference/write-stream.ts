import type { FastifyReply } from 'fastify';
import type { StreamPart } from '../../inference/answer-stream.js';
import { SseSocket } from './sse-socket.js';
import { headersSoFar } from './reply-headers.js';

/**
 * Writes a streamed answer: keep-alive comments while nothing commits, the stream's headers when it
 * does, each frame with back-pressure, and a refusal as an HTTP error while nothing was written
 * (in-band once a keep-alive opened the stream).
 */
export async function writeStream(reply: FastifyReply, parts: AsyncIterable<StreamPart>, keepAliveMs: number): Promise<void> {
  const socket = new SseSocket(reply.raw, headersSoFar(reply), keepAliveMs);
  reply.hijack();
  socket.startKeepAlive();
  try {
    for await (const part of parts) {
      switch (part.type) {
        case 'open':
          socket.open(part.headers);
          break;
        case 'text': {
          const full = socket.write(part.text);
          if (full) await full;
          break;
        }
        case 'refused':
          refuse(socket, reply, part);
          return;
        default: {
          const unreachable: never = part;
          throw new Error(`unknown stream part ${String(unreachable)}`);
        }
      }
    }
  } finally {
    socket.end();
  }
}

function refuse(socket: SseSocket, reply: FastifyReply, part: Extract<StreamPart, { type: 'refused' }>): void {
  if (socket.isOpen) {
    socket.end(part.inBand);
    return;
  }
  socket.stop();
  if (socket.isClosed) return;
  reply.raw.writeHead(part.reply.status, { ...headersSoFar(reply), ...part.reply.headers, 'content-type': 'application/json; charset=utf-8' });
  reply.raw.end(JSON.stringify(part.reply.body));
}
