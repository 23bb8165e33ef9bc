import type { FastifyReply } from 'fastify';
import type { CoreEvent } from '../../core/events.js';
import { AllAttemptsFailed, type Answer } from '../../core/executor.js';
import { failuresToError, failureToError } from '../../core/failure-error.js';
import { GatewayError, INTERNAL_ERROR_MESSAGE, toEnvelope } from '../../core/errors.js';
import { settleGeneration, type GenerationOutcome } from '../../core/accounting.js';
import type { Services } from '../services.js';
import type { DialectBinding } from './dialect-binding.js';
import type { PreparedInference } from './prepare.js';
import { SseSocket } from './sse-socket.js';
import { clientSignal } from './client-signal.js';
import { OutputMeter } from './output-meter.js';

/**
 * Runs a streamed request. Before commit, failures fail over (and, while no byte was sent, answer
 * with an HTTP error); after commit, events are translated frame by frame and a failure is the
 * dialect's in-band error. The usage frame is sent once the charge is settled.
 */
export async function runStream(
  services: Services,
  prepared: PreparedInference,
  reply: FastifyReply,
  dialect: DialectBinding,
): Promise<void> {
  const outcome: GenerationOutcome = {
    generationId: prepared.generationId,
    key: prepared.key,
    request: prepared.request,
    estimatedPromptTokens: prepared.promptTokens,
    streamed: true,
    startedAt: prepared.startedAt,
  };
  const socket = new SseSocket(reply.raw, { 'x-generation-id': prepared.generationId }, services.settings.keepAliveMs);
  const signal = clientSignal(reply);
  reply.hijack();
  socket.startKeepAlive();
  let answer: Answer<AsyncGenerator<CoreEvent>>;
  try {
    answer = await services.executor.stream(prepared.request, prepared.plan, signal);
  } catch (error) {
    outcome.error = error instanceof AllAttemptsFailed ? failuresToError(error.failures) : internalError(services, error);
    await settleGeneration(services.ledger, prepared.hold, outcome);
    return failBeforeCommit(socket, reply, outcome.error, dialect, prepared);
  }
  outcome.attempt = answer.attempt;
  const meta = {
    id: prepared.generationId,
    created: Math.floor(prepared.startedAt / 1000),
    model: answer.attempt.modelId,
    provider: answer.attempt.endpoint.provider.name,
  };
  socket.open({ 'x-provider-name': meta.provider });
  const writer = dialect.createStreamWriter(meta);
  const meter = new OutputMeter();
  for await (const event of answer.events) {
    if (event.type === 'error') {
      outcome.error = failureToError(event.failure, meta.provider);
      break;
    }
    if (outcome.firstContentAt === undefined && meter.isContent(event)) outcome.firstContentAt = Date.now();
    meter.observe(event, outcome);
    if (socket.isClosed) break;
    await socket.write(writer.write(event));
  }
  const clientLeft = socket.isClosed;
  if (clientLeft) outcome.cancelled = true;
  if (outcome.error || clientLeft) outcome.usage = meter.usageAfterCut(outcome.usage, prepared.promptTokens);
  const cost = await settleGeneration(services.ledger, prepared.hold, outcome);
  if (clientLeft) return socket.stop();
  socket.end(outcome.error ? writer.fail(outcome.error) : writer.finish({ usage: outcome.usage, cost }));
}

function failBeforeCommit(
  socket: SseSocket,
  reply: FastifyReply,
  error: GatewayError,
  dialect: DialectBinding,
  prepared: PreparedInference,
): void {
  if (socket.isOpen) {
    const writer = dialect.createStreamWriter({ id: prepared.generationId, created: Math.floor(prepared.startedAt / 1000), model: prepared.request.models[0] ?? '', provider: '' });
    socket.end(writer.fail(error));
    return;
  }
  socket.stop();
  if (socket.isClosed) return;
  reply.raw.writeHead(error.status, { ...error.headers, 'content-type': 'application/json; charset=utf-8', 'x-generation-id': prepared.generationId });
  reply.raw.end(JSON.stringify(toEnvelope(error)));
}

function internalError(services: Services, error: unknown): GatewayError {
  services.logger.error({ err: error }, 'stream failed before commit');
  return new GatewayError('server', INTERNAL_ERROR_MESSAGE);
}
