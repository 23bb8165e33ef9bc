import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { ConnectionError } from 'fastify';
import type { Logger } from 'pino';
import { GatewayError, toEnvelope, type ErrorCode } from '../core/errors.js';
import { describeLimit } from './body-limit.js';
import { bodyTimeoutError, headTimeoutError } from './request-timeouts.js';
import type { HttpSettings } from './services.js';

/** Time for a refusal to reach its caller before the connection is cut anyway (a caller that does not read). */
const ANSWER_GRACE_MS = 5_000;

/** What Node's HTTP parser adds to its errors: the parser's own words for what was wrong. */
type ClientError = ConnectionError & { reason?: string };

/**
 * Answers what Node refuses before any route sees a request (a malformed head, a head over the size
 * limit, a request past its head or whole-request deadline) in the shared envelope, as a complete
 * HTTP response with `Connection: close`, and then closes the connection. A request already routed
 * whose body is late or malformed is answered by its route instead, through the one error handler,
 * so its refusal carries the route's envelope and X-Generation-Id and is recorded like any other.
 * Every refusal answered gets its one `info` line, as any request does.
 */
export function clientErrorHandler(settings: HttpSettings, logger: Logger): (error: ConnectionError, socket: Socket) => void {
  return (error, socket) => {
    if (socket.destroyed) return;
    const response = responseOn(socket);
    const refusal = clientRefusal(error as ClientError, settings, response !== undefined);
    if (!refusal || !socket.writable || response?.headersSent) {
      socket.destroy();
      return;
    }
    if (response && failBodyRead(response.req, refusal)) {
      cutAfterGrace(socket);
      return;
    }
    // A routed request gets its one log line when its response closes (request-log.ts), with this
    // status; one that never got that far is logged here.
    if (response) response.statusCode = refusal.status;
    else logger.info({ status: refusal.status, reason: refusal.message }, 'request');
    writeRefusal(socket, refusal);
  };
}

/**
 * The refusal for a connection-level error, or undefined when there is no one to answer (a reset);
 * `routed` when the request's head had arrived and its body was being read.
 */
function clientRefusal(error: ClientError, settings: HttpSettings, routed: boolean): GatewayError | undefined {
  switch (error.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return routed ? bodyTimeoutError(settings) : headTimeoutError(settings);
    case 'HPE_HEADER_OVERFLOW':
      return closing('headers_too_large', `request: headers larger than the ${describeLimit(maxHeaderSize)} limit`);
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return closing('payload_too_large', 'body: chunk extensions too large');
    default:
      break;
  }
  if (!error.code?.startsWith('HPE_')) return undefined;
  return closing('invalid_request', `request: malformed HTTP request (${error.reason ?? error.code})`);
}

/** Every refusal here closes its connection: what follows on it cannot be read as a request. */
function closing(code: ErrorCode, message: string): GatewayError {
  return new GatewayError(code, message, { headers: { connection: 'close' } });
}

/** The response Node has started for the request being read on this socket, if any. */
function responseOn(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/**
 * Ends the reading of a request's body with `error`, when something is reading it (the JSON or
 * form parser): the route's error handler then answers. False when nothing is reading it (the
 * request is still in its first hooks, or its route reads no body).
 */
function failBodyRead(request: IncomingMessage, error: GatewayError): boolean {
  if (request.complete || request.listenerCount('error') === 0) return false;
  request.emit('error', error);
  return true;
}

/** Writes `refusal` as a whole HTTP response and closes the connection once it is sent. */
function writeRefusal(socket: Socket, refusal: GatewayError): void {
  const body = JSON.stringify(toEnvelope(refusal));
  const head = [
    `HTTP/1.1 ${refusal.status} ${STATUS_CODES[refusal.status] ?? ''}`,
    'content-type: application/json; charset=utf-8',
    `content-length: ${Buffer.byteLength(body)}`,
    ...Object.entries(refusal.headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.once('finish', () => socket.destroy());
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
  cutAfterGrace(socket);
}

function cutAfterGrace(socket: Socket): void {
  const cut = setTimeout(() => socket.destroy(), ANSWER_GRACE_MS).unref();
  socket.once('close', () => clearTimeout(cut));
}
