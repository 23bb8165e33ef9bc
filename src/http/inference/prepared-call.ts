import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CoreRequest } from '../../core/request.js';
import type { InferenceCall } from '../../inference/call.js';
import { prepareInference, type PrepareOptions, type PreparedInference } from '../../inference/prepare.js';
import type { WholeReply } from '../../inference/reply.js';
import type { Services } from '../services.js';
import { authenticatedKey } from '../auth.js';
import { RequestTrace } from '../request-trace.js';

/**
 * The pipeline's call for an HTTP request: its key and generation id, a signal aborted when the
 * connection closes before the reply finished, the instance's restart signal, and the request's
 * trace as the observer (its log line, warnings and metrics).
 */
export function inferenceCall(request: FastifyRequest, reply: FastifyReply, services: Pick<Services, 'restart' | 'logger' | 'metrics'>): InferenceCall {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  const generationId = request.generationId ?? '';
  const trace = new RequestTrace(services.logger, services.metrics, generationId);
  request.trace = trace;
  return { key: authenticatedKey(request), generationId, signal: controller.signal, restart: services.restart, observer: trace };
}

/** Plans and holds the request; from then on the pipeline, not the error handler, records it. */
export async function prepareCall(
  services: Services,
  http: { request: FastifyRequest; reply: FastifyReply },
  core: CoreRequest,
  options: PrepareOptions = {},
): Promise<PreparedInference> {
  const prepared = await prepareInference(services, inferenceCall(http.request, http.reply, services), core, options);
  http.request.creditHeld = true;
  return prepared;
}

/** Sends a whole reply of the pipeline. */
export function sendWhole(reply: FastifyReply, whole: WholeReply): FastifyReply {
  return reply.code(whole.status).headers(whole.headers).send(whole.body);
}
