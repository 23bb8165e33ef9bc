import type { FastifyReply } from 'fastify';
import type { CoreEvent } from '../core/events.js';
import { AllAttemptsFailed, type Answer } from './executor.js';
import { failureToError } from '../core/failure-error.js';
import { GatewayError, INTERNAL_ERROR_MESSAGE, toEnvelope } from '../core/errors.js';
import type { GenerationOutcome } from '../billing/settlement.js';
import { AnswerMeter } from '../core/answer-meter.js';
import { visibleToCaller } from '../core/caller-view.js';
import { honouredMembers } from '../core/honoured.js';
import type { Services } from '../http/services.js';
import type { DialectBinding, DialectStreamWriter } from '../dialects/shared/dialect-binding.js';
import type { PreparedInference } from './prepare.js';
import { SseSocket } from '../http/inference/sse-socket.js';
import { headersSoFar } from '../http/inference/reply-headers.js';
import { clientAbortedError, clientSignal } from '../http/inference/client-signal.js';
import { settleOrLog, unrecordedError } from './settlement.js';
import { cutByRestartError } from '../http/drain.js';
import { closeOutcome, recordServed, replyMeta, startOutcome, unansweredError } from './outcome.js';

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
  const outcome = startOutcome(prepared, true);
  const socket = new SseSocket(reply.raw, headersSoFar(reply), services.settings.keepAliveMs);
  const signal = clientSignal(reply, services.restart);
  reply.hijack();
  socket.startKeepAlive();
  let answer: Answer<AsyncGenerator<CoreEvent>>;
  try {
    answer = await services.executor.stream(prepared.request, prepared.plan, signal);
  } catch (error) {
    outcome.error = error instanceof AllAttemptsFailed ? unansweredError(outcome, error, signal, services.restart)
      : services.restart.aborted ? cutByRestartError() : internalError(services, error);
    await settleOrLog(services, prepared.hold, outcome);
    return failBeforeCommit(socket, reply, outcome.error, dialect, dialect.createStreamWriter(fallbackMeta(prepared), prepared.request));
  }
  outcome.attempt = answer.attempt;
  const meta = replyMeta(prepared, answer.attempt);
  socket.open({ 'x-provider-name': meta.provider });
  const writer = dialect.createStreamWriter(meta, prepared.request);
  await socket.write(writer.open());
  const meter = new AnswerMeter();
  await pump(answer.events, { socket, writer, meter, outcome, provider: meta.provider, refuse: dialect.refuseOutput });
  const clientLeft = socket.isClosed;
  if (clientLeft) {
    // Whatever the provider stream did once the caller's abort reached it, the caller ended it.
    outcome.cancelled = true;
    outcome.error = clientAbortedError();
  } else if (outcome.error && services.restart.aborted) outcome.error = cutByRestartError();
  await closeOutcome(outcome, meter, outcome.error !== undefined || clientLeft);
  const cost = await settleOrLog(services, prepared.hold, outcome);
  recordServed(services.state, outcome);
  if (clientLeft) return socket.stop();
  const honoured = honouredMembers(prepared.request, answer.attempt);
  const failure = outcome.error ?? (cost === undefined ? unrecordedError() : undefined);
  socket.end(failure ? writer.fail(failure) : writer.finish({ usage: outcome.usage, cost: cost ?? 0, honoured }));
}

interface PumpContext {
  socket: SseSocket;
  writer: DialectStreamWriter;
  meter: AnswerMeter;
  outcome: GenerationOutcome;
  provider: string;
  refuse: DialectBinding['refuseOutput'];
}

/**
 * Translates committed events frame by frame until the answer ends, fails, carries a part the
 * dialect refuses, or the caller leaves.
 */
async function pump(events: AsyncGenerator<CoreEvent>, context: PumpContext): Promise<void> {
  const { socket, writer, meter, outcome } = context;
  for await (const event of events) {
    if (event.type === 'error') {
      outcome.error = failureToError(event.failure, context.provider);
      return;
    }
    meter.observe(event);
    const refusal = context.refuse?.(event);
    if (refusal) {
      outcome.error = refusal;
      await events.return(undefined);
      return;
    }
    if (socket.isClosed) {
      await events.return(undefined);
      return;
    }
    if (visibleToCaller(event, outcome.request)) await socket.write(writer.write(event));
  }
}

function fallbackMeta(prepared: PreparedInference) {
  return { id: prepared.generationId, created: Math.floor(prepared.startedAt / 1000), model: prepared.request.models[0] ?? '', provider: '' };
}

function failBeforeCommit(socket: SseSocket, reply: FastifyReply, error: GatewayError, dialect: DialectBinding, writer: DialectStreamWriter): void {
  if (socket.isOpen) {
    socket.end(writer.open() + writer.fail(error));
    return;
  }
  socket.stop();
  if (socket.isClosed) return;
  reply.raw.writeHead(error.status, { ...headersSoFar(reply), ...error.headers, 'content-type': 'application/json; charset=utf-8' });
  reply.raw.end(JSON.stringify(dialect.streamRefusalBody?.(error) ?? toEnvelope(error)));
}

function internalError(services: Services, error: unknown): GatewayError {
  services.logger.error({ err: error }, 'stream failed before commit');
  return new GatewayError('server', INTERNAL_ERROR_MESSAGE);
}
