import { performance } from 'node:perf_hooks';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { CallObserver } from '../inference/observer.js';
import { isPlainObject } from '../core/plain-object.js';
import { askedModel } from '../inference/refusal-record.js';
import type { RequestTrace } from './request-trace.js';

/** A finished request as the metrics count it. */
export interface EndedRequest {
  /** The route pattern (`/api/v1/chat/completions`), or `unmatched`. */
  route: string;
  status: number;
  durationMs: number;
  /** Slug of the provider that served it, if one did. */
  provider?: string;
  /** Time to the first content of a streamed answer. */
  firstContentMs?: number;
}

/** Where the request log reports: every finished request, and each call's attempts and streams. */
export interface RequestMetrics extends CallObserver {
  requestEnded(request: EndedRequest): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** What the pipeline told about an inference request's call. */
    trace?: RequestTrace;
  }
}

/** What the request log writes to. */
export interface RequestLogServices {
  logger: Pick<Logger, 'info' | 'isLevelEnabled'>;
  metrics: RequestMetrics;
}

/** The route label of a request no route matched. */
export const UNMATCHED_ROUTE = 'unmatched';

/** The status logged for a request whose caller left before any answer was sent (as its generation is recorded). */
const CALLER_LEFT_STATUS = 408;

/**
 * One `info` line per request when it ends, whatever ended it (an answer, a refusal in a hook, the
 * drain, a caller leaving), and the request counted in the metrics. Registered first, so every
 * other hook of the app runs after it. The key itself is never logged: only its id.
 */
export function registerRequestLog(app: FastifyInstance, services: RequestLogServices): void {
  app.addHook('onRequest', (request, reply, done) => {
    const startedAt = performance.now();
    reply.raw.once('close', () => requestEnded(services, { request, reply, startedAt }));
    done();
  });
}

interface EndingRequest {
  request: FastifyRequest;
  reply: FastifyReply;
  startedAt: number;
}

function requestEnded(services: RequestLogServices, ending: EndingRequest): void {
  const { request, reply } = ending;
  const durationMs = performance.now() - ending.startedAt;
  const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
  const status = statusOf(reply.raw);
  const { trace } = request;
  const provider = trace?.provider;
  services.metrics.requestEnded({ route, status, durationMs, provider, firstContentMs: trace?.firstContentMs });
  if (!services.logger.isLevelEnabled('info')) return;
  const model = trace?.model ?? (isPlainObject(request.body) ? askedModel(request.body) : '');
  // one shape for every line, a member left undefined where it does not apply (pino leaves those
  // out): a line built with a spread per optional member cost twice as much
  services.logger.info({
    method: request.method,
    route,
    path: route === UNMATCHED_ROUTE ? request.url.split('?')[0] : undefined,
    status,
    duration_ms: Math.round(durationMs * 10) / 10,
    aborted: reply.raw.writableFinished ? undefined : true,
    generation_id: request.generationId,
    key_id: request.key?.keyId,
    model: model === '' ? undefined : model,
    provider,
    attempts: trace?.attempts,
  }, 'request');
}

/**
 * The status sent, else the one chosen for an answer written past Node's response (see
 * client-error.ts), else CALLER_LEFT_STATUS: the caller left before any answer.
 */
function statusOf(response: ServerResponse): number {
  return response.headersSent || response.statusCode !== 200 ? response.statusCode : CALLER_LEFT_STATUS;
}
