import type { AbortLike } from '../core/abort.js';
import type { CoreEvent } from '../core/events.js';
import { failureToError } from '../core/failure-error.js';
import { GatewayError, INTERNAL_ERROR_MESSAGE, toEnvelope } from '../core/errors.js';
import { AnswerMeter } from '../core/answer-meter.js';
import { visibleToCaller } from '../core/caller-view.js';
import { honouredMembers } from './honoured.js';
import type { DialectBinding, DialectStreamWriter } from '../dialects/shared/dialect-binding.js';
import { AllAttemptsFailed, type Answer } from './executor.js';
import { attemptSignal } from './call.js';
import { CallState, unrecordedError } from './call-state.js';
import type { PreparedInference } from './prepare.js';
import type { StreamOutput } from './stream-output.js';
import { STOP, type StreamReads } from './upstream-events.js';
import { cutByRestartError } from './restart.js';
import type { InferenceServices } from './services.js';
import { StreamCheckpoint } from './stream-checkpoint.js';
import { recordAnswer } from './endpoint-samples.js';
import { ToolCallCheck } from './tool-call-check.js';
import { toolContractOf } from '../core/tool-contract.js';

/**
 * Answers a streamed request into `output`. Before commit, failures fail over (and finally
 * refuse); after commit, each upstream read's events are translated and written as they arrive, in
 * the same call (no await between the provider's bytes and the caller's), and a failure is the
 * dialect's in-band error. The usage frame comes once the charge is settled. A caller who leaves
 * (its signal) ends the stream: recorded as cancelled, billed for what was produced. What was
 * delivered is checkpointed as it goes, so that a crash of the instance bills it too.
 */
export async function answerStream(services: InferenceServices, prepared: PreparedInference, dialect: DialectBinding, output: StreamOutput): Promise<void> {
  const state = new CallState(prepared, true);
  const upstream = attemptSignal(prepared.call);
  const { observer } = prepared.call;
  let opened = false;
  try {
    let answer: Answer<StreamReads>;
    try {
      answer = await services.executor.stream(prepared.request, prepared.plan, upstream.signal);
    } catch (error) {
      const refusal = error instanceof AllAttemptsFailed ? state.unanswered(services.samples, error)
        : state.failedBeforeAnswer(prepared.call.restart.aborted ? cutByRestartError() : internalError(services, error));
      await state.settle(services);
      refuse(output, refusal, dialect, prepared);
      return;
    }
    state.answered(services.samples, answer);
    const meta = state.replyMeta(answer.attempt);
    const meter = new AnswerMeter();
    const checkpoint = new StreamCheckpoint(services.checkpoints, { hold: prepared.hold, endpointId: answer.attempt.endpoint.id, meter });
    await checkpoint.committed();
    observer.streamOpened();
    opened = true;
    output.open({ 'x-provider-name': meta.provider });
    const writer = dialect.createStreamWriter(meta, prepared.request);
    const opening = output.write(writer.open());
    if (opening) await opening;
    const context: StepContext = {
      writer, meter, state, provider: meta.provider, refuse: dialect.refuseOutput, signal: prepared.call.signal,
      toolCalls: ToolCallCheck.of(prepared.request), upstreamFailed: false, ended: false,
    };
    // One step per upstream read: its events are translated together and leave as one write,
    // checkpointed once the output took it. Stopping ends the provider's stream as well.
    const delivered = () => checkpoint.delivered();
    await answer.events.each((events) => {
      const full = output.write(translateRead(events, context));
      if (full) return context.ended ? STOP : full.then(delivered);
      delivered();
      return context.ended ? STOP : undefined;
    });
    const endedEarly = prepared.call.signal.aborted || (state.error !== undefined && prepared.call.restart.aborted);
    // Whatever the provider stream did once the caller's abort reached it, the caller ended it.
    if (endedEarly) state.endedEarly();
    await state.ended(meter, state.error !== undefined);
    recordAnswer(services.samples, {
      endpointId: answer.attempt.endpoint.id,
      startedAt: answer.startedAt,
      endedAt: Date.now(),
      firstContentAt: meter.firstContentAt,
      tokenStream: true,
      completionTokens: state.outcome.usage?.completionTokens,
      finish: meter.finish,
      end: endedEarly ? 'cut' : context.upstreamFailed ? 'failed' : 'complete',
      toolCall: context.toolCalls?.outcome(toolContractOf(prepared.request) !== undefined),
    });
    const cost = await state.settle(services);
    if (state.cancelled) return;
    const honoured = honouredMembers(prepared.request, answer.attempt);
    const failure = state.error ?? (cost === undefined ? unrecordedError() : undefined);
    await output.write(failure ? writer.fail(failure) : writer.finish({ usage: state.outcome.usage, cost: cost ?? 0, honoured }));
  } finally {
    upstream.release();
    if (opened) observer.streamClosed(state.firstContentMs);
  }
}

interface StepContext {
  writer: DialectStreamWriter;
  meter: AnswerMeter;
  state: CallState;
  provider: string;
  refuse: DialectBinding['refuseOutput'];
  /** The caller's signal: once aborted nothing more is written. */
  signal: AbortLike;
  /** Present when the request offers tools: what the answer's tool calls are worth. */
  toolCalls: ToolCallCheck | undefined;
  /** Set once the endpoint broke the answer off (an in-band error), as opposed to a refusal or the caller leaving. */
  upstreamFailed: boolean;
  /** Set once the answer stops: nothing after it is translated. */
  ended: boolean;
}

/** The answer ended before its provider stream did: it failed, carried a part the dialect refuses, or the caller left. */
const ENDED = Symbol('ended');

/** The events of one upstream read translated for the caller, up to where the answer stops (then `ended`). */
function translateRead(events: readonly CoreEvent[], context: StepContext): string {
  let text = '';
  for (const event of events) {
    const translated = translate(event, context);
    if (translated === ENDED) {
      context.ended = true;
      break;
    }
    text += translated;
  }
  return text;
}

/**
 * One committed event translated for the caller (possibly no text at all), or ENDED when the answer
 * stops here. Kept synchronous so each frame costs no generator hop of its own.
 */
function translate(event: CoreEvent, context: StepContext): string | typeof ENDED {
  const { writer, state } = context;
  if (event.type === 'error') {
    state.failed(failureToError(event.failure, context.provider));
    context.upstreamFailed = true;
    return ENDED;
  }
  context.meter.observe(event);
  context.toolCalls?.observe(event);
  const refusal = context.refuse?.(event);
  if (refusal) {
    state.failed(refusal);
    return ENDED;
  }
  if (context.signal.aborted) return ENDED;
  return visibleToCaller(event, state.prepared.request) ? writer.write(event) : '';
}

/** Writes the refusal of a stream no endpoint answered. */
function refuse(output: StreamOutput, error: GatewayError, dialect: DialectBinding, prepared: PreparedInference): void {
  const meta = {
    id: prepared.call.generationId,
    created: Math.floor(prepared.startedAt / 1000),
    model: prepared.request.models[0] ?? '',
    provider: '',
  };
  const writer = dialect.createStreamWriter(meta, prepared.request);
  const reply = { status: error.status, headers: { ...error.headers }, body: dialect.streamRefusalBody?.(error) ?? toEnvelope(error) };
  output.refuse(reply, writer.open() + writer.fail(error));
}

/** A fault of the service before a stream committed: logged, and answered as the 500. */
export function internalError(services: Pick<InferenceServices, 'logger'>, error: unknown): GatewayError {
  services.logger.error({ err: error }, 'stream failed before commit');
  return new GatewayError('server', INTERNAL_ERROR_MESSAGE);
}
