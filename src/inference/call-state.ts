import { formatUsd } from '../billing/money.js';
import { settleGeneration, type GenerationOutcome, type OutcomePricer, type Overrun } from '../billing/settlement.js';
import type { AnswerMeter } from '../core/answer-meter.js';
import { GatewayError } from '../core/errors.js';
import { failuresToError } from '../core/failure-error.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { ReplyMeta } from '../dialects/shared/reply-meta.js';
import { clientAbortedError, type CallPhase } from './call.js';
import { recordFailedAttempts } from './endpoint-samples.js';
import { AllAttemptsFailed, type Answer } from './executor.js';
import { reportAttempts } from './observer.js';
import type { PreparedInference } from './prepare.js';
import { cutByRestartError } from './restart.js';
import type { InferenceServices } from './services.js';

/** The services a settlement uses: the ledger, the log, the overrun counter it feeds, the samples and the live state. */
export type SettlementServices = Pick<InferenceServices, 'ledger' | 'logger' | 'overruns' | 'samples' | 'state'>;

/** An admitted request whose charge could not be recorded (spec 02: 503 `server`, repeat shortly). */
export function unrecordedError(): GatewayError {
  return new GatewayError('server_unavailable', 'The answer could not be recorded; repeat the request', { headers: { 'retry-after': '5' } });
}

/**
 * The state of one held call, from its hold to its settlement, changed only through its transitions.
 * What it holds is what the generation record is written from.
 */
export class CallState {
  readonly #outcome: GenerationOutcome;
  #phase: CallPhase = 'held';

  constructor(
    readonly prepared: PreparedInference,
    streamed: boolean,
  ) {
    this.#outcome = {
      generationId: prepared.call.generationId,
      key: prepared.call.key,
      request: prepared.request,
      calls: prepared.calls,
      estimatedPromptTokens: prepared.promptTokens,
      streamed,
      startedAt: prepared.startedAt,
    };
    prepared.call.onPhase?.('held');
  }

  get phase(): CallPhase {
    return this.#phase;
  }

  /** The facts recorded so far, read-only. */
  get outcome(): Readonly<GenerationOutcome> {
    return this.#outcome;
  }

  get error(): GatewayError | undefined {
    return this.#outcome.error;
  }

  get cancelled(): boolean {
    return this.#outcome.cancelled === true;
  }

  /** Time from the call's start to its first content, when any came. */
  get firstContentMs(): number | undefined {
    const { firstContentAt, startedAt } = this.#outcome;
    return firstContentAt === undefined ? undefined : firstContentAt - startedAt;
  }

  /** The reply's identity as the dialect encodes it, served by `attempt`. */
  replyMeta(attempt: PlannedAttempt): ReplyMeta {
    return {
      id: this.prepared.call.generationId,
      created: Math.floor(this.prepared.startedAt / 1000),
      model: attempt.modelId,
      provider: attempt.endpoint.provider.name,
    };
  }

  /**
   * held → answered: the answer committed at its attempt. The call's observer hears of every
   * attempt; the failed ones before it are recorded as their endpoints' samples.
   */
  answered(samples: InferenceServices['samples'], answer: Answer<unknown>): void {
    this.#enter('answered', 'held');
    this.#outcome.attempt = answer.attempt;
    reportAttempts(this.prepared.call.observer, answer.failures, answer.attempt);
    recordFailedAttempts(samples, answer.failures, this.prepared.call);
  }

  /**
   * held → ended with no answer: cut short by a restart, ended by its caller leaving (also marked
   * cancelled), or the endpoints' failures (each told to the observer and recorded as a sample).
   */
  unanswered(samples: InferenceServices['samples'], failed: AllAttemptsFailed): GatewayError {
    reportAttempts(this.prepared.call.observer, failed.failures);
    recordFailedAttempts(samples, failed.failures, this.prepared.call);
    const error = (this.endedEarly() && this.#outcome.error) || failuresToError(failed.failures);
    this.#outcome.error = error;
    this.#enter('ended', 'held');
    return error;
  }

  /** held → ended by a fault of the service before any answer (the stream's internal error, a restart). */
  failedBeforeAnswer(error: GatewayError): GatewayError {
    this.#outcome.error = error;
    this.#enter('ended', 'held');
    return error;
  }

  /** The answer failed, or carried what the caller may not have: `refused` when none of it was delivered (charged nothing). */
  failed(error: GatewayError, refused = false): void {
    this.#outcome.error = error;
    if (refused) this.#outcome.refused = true;
  }

  /** When the first content came, where no meter saw it (a relay's first bytes, an operation's result). */
  contentAt(at: number): void {
    this.#outcome.firstContentAt = at;
  }

  /**
   * Marks an answer its caller left (recorded as cancelled, 408) or the restart cut short (503);
   * returns whether either happened.
   */
  endedEarly(): boolean {
    const { call } = this.prepared;
    if (call.signal.aborted) {
      this.#outcome.cancelled = true;
      this.#outcome.error = clientAbortedError();
      return true;
    }
    if (call.restart.aborted) {
      this.#outcome.error = cutByRestartError();
      return true;
    }
    return false;
  }

  /** answered → ended: what the meter saw, with the usage to bill. */
  async ended(meter: AnswerMeter, cutShort: boolean): Promise<void> {
    const outcome = this.#outcome;
    const usage = await meter.billedUsage({ cutShort, promptEstimate: outcome.estimatedPromptTokens });
    if (usage) outcome.usage = usage;
    if (meter.firstContentAt !== undefined) outcome.firstContentAt = meter.firstContentAt;
    outcome.finishReason = outcome.error ? 'error' : meter.finish ?? null;
    outcome.nativeFinishReason = meter.nativeFinish;
    if (meter.upstreamId) outcome.upstreamId = meter.upstreamId;
    this.#enter('ended', 'answered');
  }

  /** answered → ended, with what a call that is not a conversation (an operation, a relay) reported. */
  endedWith(recorded: { usage?: GenerationOutcome['usage']; upstreamId?: string; finishReason: string | null }): void {
    const outcome = this.#outcome;
    outcome.finishReason = recorded.finishReason;
    if (recorded.usage) outcome.usage = recorded.usage;
    if (recorded.upstreamId) outcome.upstreamId = recorded.upstreamId;
    this.#enter('ended', 'answered');
  }

  /**
   * ended → settled: the generation is priced, settled and recorded; a served answer feeds session
   * affinity. When the ledger cannot (database unreachable) the failure is logged and the charge is
   * undefined: the reply then ends without its usage (or answers 503 when nothing was sent yet), and
   * the settlement is tried again once the database answers (see settlement-retries.ts); settling
   * twice charges nothing twice. A charge cut
   * below the reported usage's price is counted per endpoint and logged.
   */
  async settle(services: SettlementServices, price?: OutcomePricer): Promise<number | undefined> {
    this.#enter('settled', 'ended');
    const outcome = this.#outcome;
    let cost: number | undefined;
    try {
      cost = await settleGeneration(services.ledger, this.prepared.hold, outcome, {
        ...(price && { price }),
        onOverrun: (overrun) => noteOverrun(services, overrun),
      });
    } catch (error) {
      services.logger.error({ err: error, generation: outcome.generationId }, 'settlement failed');
    }
    const endpoint = outcome.attempt?.endpoint;
    if (endpoint && !outcome.error && outcome.request.sessionId !== undefined) services.state.sessions.remember(outcome.request.sessionId, endpoint.id);
    return cost;
  }

  /** Settles a whole answer and returns its charge; a charge that could not be recorded is the 503. */
  async settleOrRefuse(services: SettlementServices, price?: OutcomePricer): Promise<number> {
    const cost = await this.settle(services, price);
    if (cost === undefined) throw unrecordedError();
    return cost;
  }

  /**
   * Closes a call that got no answer: a failure of every endpoint (settled as an error costing
   * nothing, thrown as the caller's error), or a fault of the service itself (the hold released,
   * rethrown as is).
   */
  async settleUnanswered(services: SettlementServices, error: unknown): Promise<never> {
    if (!(error instanceof AllAttemptsFailed)) {
      this.#phase = 'settled';
      await services.ledger.release(this.prepared.hold);
      this.prepared.call.onPhase?.('settled');
      throw error;
    }
    const refusal = this.unanswered(services.samples, error);
    await this.settle(services);
    throw refusal;
  }

  #enter(phase: CallPhase, from: CallPhase): void {
    if (this.#phase !== from) throw new Error(`call ${this.#outcome.generationId}: ${phase} after ${this.#phase}`);
    this.#phase = phase;
    this.prepared.call.onPhase?.(phase);
  }
}

/** An endpoint reported usage pricing above what the request was held for: counted, and one warning. */
function noteOverrun(services: Pick<SettlementServices, 'logger' | 'overruns'>, overrun: Overrun): void {
  services.overruns.record(overrun.endpointId, overrun.amount);
  services.logger.warn({
    endpoint: overrun.endpointId,
    generation: overrun.generationId,
    uncollected_usd: formatUsd(overrun.amount),
    reason: overrun.reasons.join(','),
  }, 'usage reported past the hold was not charged');
}
