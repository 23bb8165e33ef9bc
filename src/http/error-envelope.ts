import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { GatewayError, INTERNAL_ERROR_MESSAGE, toEnvelope } from '../core/errors.js';
import { bodyTooLargeError, sendWhileDraining } from './body-limit.js';
import { validationError } from '../dialects/shared/validation-message.js';
import { isStoreUnreachable } from '../store/store-unreachable.js';

/**
 * The one place errors become HTTP replies, in the shared envelope of spec 02 (or a route's dialect
 * envelope carrying the same members, see `errorBody`); refusals are first handed to
 * `recordRefusal` (which decides which of them become generation records).
 */
export function registerErrorEnvelope(app: FastifyInstance, recordRefusal?: (request: FastifyRequest, error: GatewayError) => Promise<void>): void {
  app.setErrorHandler(async (error: FastifyError, request, reply) => {
    const gatewayError = request.deferredRefusal ?? toGatewayError(error, request.routeOptions.bodyLimit);
    if (gatewayError.code === 'server') request.log.error({ err: error }, 'request failed');
    else if (gatewayError === DATABASE_UNREACHABLE) request.log.warn({ err: error }, 'the database could not be reached; answered 503');
    // nothing can be recorded while the database is away; trying would only delay the 503
    if (gatewayError !== DATABASE_UNREACHABLE) await recordRefusal?.(request, gatewayError);
    if (error.code === BODY_TOO_LARGE) return sendWhileDraining(request, reply, gatewayError, errorBody(request, gatewayError));
    return reply.code(gatewayError.status).headers(gatewayError.headers).send(errorBody(request, gatewayError));
  });
  app.setNotFoundHandler((request, reply) =>
    sendError(reply, new GatewayError('not_found', `No route ${request.method} ${request.url.split('?')[0]}`)));
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A dialect's own envelope for refusing a streamed request before its stream opened. */
    streamRefusalBody?: (error: GatewayError) => unknown;
    /** A dialect's own envelope for every error its route answers (it keeps the shared members). */
    errorBody?: (error: GatewayError) => unknown;
  }
}

/** The body answering `error` on this request's route: the route's own envelope, else the shared one. */
export function errorBody(request: FastifyRequest, error: GatewayError): unknown {
  const config = request.routeOptions.config;
  const dialectBody = config.errorBody?.(error) ?? (asksStream(request.body) ? config.streamRefusalBody?.(error) : undefined);
  return dialectBody ?? toEnvelope(error);
}

function asksStream(body: unknown): boolean {
  return typeof body === 'object' && body !== null && (body as { stream?: unknown }).stream === true;
}

/**
 * Errors the router raises before any route or hook runs: a path whose percent-encoding does not
 * decode, or with a segment longer than the router reads, is the caller's 400 naming the path, in
 * the envelope like every other refusal.
 */
export function frameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  sendError(reply, frameworkRefusal(error.code));
}

function frameworkRefusal(code: string): GatewayError {
  switch (code) {
    case 'FST_ERR_BAD_URL':
      return new GatewayError('invalid_request', 'path: malformed percent-encoding', { metadata: { field: 'path' } });
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new GatewayError('invalid_request', 'path: a segment is too long', { metadata: { field: 'path' } });
    default:
      return new GatewayError('server', INTERNAL_ERROR_MESSAGE);
  }
}

export function sendError(reply: FastifyReply, error: GatewayError): FastifyReply {
  return reply.code(error.status).headers(error.headers).send(toEnvelope(error));
}

/** Fastify's code for a body over the limit: refused by Content-Length, or once the bytes read pass it. */
const BODY_TOO_LARGE = 'FST_ERR_CTP_BODY_TOO_LARGE';

/** The answer while the database cannot be reached (spec 02: 503 `server`, repeat): never a 500, never a 401. */
const DATABASE_UNREACHABLE = new GatewayError('server_unavailable', 'The database could not be reached; repeat the request shortly', { headers: { 'retry-after': '5' } });

function toGatewayError(error: FastifyError, bodyLimitBytes: number): GatewayError {
  if (error instanceof GatewayError) return error;
  if (isStoreUnreachable(error)) return DATABASE_UNREACHABLE;
  if (error.validation) return validationError(error.validation);
  switch (error.code) {
    case BODY_TOO_LARGE:
      return bodyTooLargeError(bodyLimitBytes);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new GatewayError('invalid_request', 'body: must be JSON (Content-Type: application/json)');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new GatewayError('invalid_request', 'body: empty JSON body');
    default:
      break;
  }
  if (error instanceof SyntaxError || error.statusCode === 400) {
    return new GatewayError('invalid_request', 'body: malformed JSON');
  }
  return new GatewayError('server', INTERNAL_ERROR_MESSAGE);
}
