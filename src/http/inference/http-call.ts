import type { FastifyReply, FastifyRequest } from 'fastify';
import type { GatewayError } from '../../core/errors.js';
import { Abort } from '../../core/abort.js';
import type { InferenceCall } from '../../inference/call.js';
import { recordRefusal } from '../../inference/refusal-record.js';
import type { InferenceAnswer } from '../../inference/run-inference.js';
import type { Services } from '../services.js';
import { authenticatedKey } from '../auth.js';
import { RequestTrace } from '../request-trace.js';
import { writeRelay } from './write-relay.js';
import { writeStream } from './write-stream.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set once the pipeline took the request: from then on it records whatever happens to it. */
    inferenceCall?: InferenceCall;
  }
}

/**
 * The pipeline's call for an HTTP request: its key and generation id, a signal aborted when the
 * connection closes before the reply finished, the instance's restart signal, and the request's
 * trace as the observer (its log line, warnings and metrics).
 */
export function inferenceCall(request: FastifyRequest, reply: FastifyReply, services: Pick<Services, 'restart' | 'logger' | 'metrics'>): InferenceCall {
  const departure = new Abort();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) departure.abort();
  });
  const generationId = request.generationId ?? '';
  const trace = new RequestTrace(services.logger, services.metrics, generationId);
  request.trace = trace;
  const call: InferenceCall = {
    key: authenticatedKey(request),
    generationId,
    signal: departure,
    restart: services.restart,
    observer: trace,
  };
  request.inferenceCall = call;
  return call;
}

/**
 * Records an inference request refused before the pipeline took it (a body that does not parse or is
 * too large, a caller who left while it was read, a key refused on a dialect answering in its own
 * envelope), as the pipeline records its own refusals.
 */
export async function recordRefusalOf(services: Pick<Services, 'ledger' | 'logger'>, request: FastifyRequest, error: GatewayError): Promise<void> {
  const { key, generationId } = request;
  if (!key || generationId === undefined || request.inferenceCall) return;
  await recordRefusal(services, { key, generationId, body: request.body, headers: request.headers, error });
}

/** Writes what the pipeline answered: a whole reply, an event stream, or a binary relay. */
export async function writeAnswer(reply: FastifyReply, answer: InferenceAnswer, keepAliveMs: number): Promise<FastifyReply> {
  switch (answer.type) {
    case 'whole':
      return reply.code(answer.reply.status).headers(answer.reply.headers).send(answer.reply.body);
    case 'stream':
      await writeStream(reply, answer.writeTo, keepAliveMs);
      return reply;
    case 'relay':
      await writeRelay(reply, answer.parts);
      return reply;
    default: {
      const unreachable: never = answer;
      throw new Error(`unknown answer ${String(unreachable)}`);
    }
  }
}
