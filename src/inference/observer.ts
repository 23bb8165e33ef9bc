import type { GatewayError } from '../core/errors.js';
import type { AttemptFailure, PlannedAttempt } from '../core/plan.js';

/**
 * What the pipeline tells about one call while it runs, so the request log and the metrics see
 * the same facts: told a few times per call (its refusal, each upstream attempt, the stream
 * opening and closing), never per frame. The HTTP layer hands one in with every call; a batch
 * or the prober hands in its own.
 */
export interface CallObserver {
  /** The call was refused before any upstream call: no route, unknown model, no credit, … */
  refused(error: GatewayError): void;
  /**
   * One upstream attempt failed before the answer committed; `failover` when the next endpoint
   * of the plan was tried after it.
   */
  attemptFailed(failed: AttemptFailure, failover: boolean): void;
  /** The answer committed at `attempt`: the endpoint that serves it. */
  answered(attempt: PlannedAttempt): void;
  /** A stream (events or audio) opened to the caller; `streamClosed` follows once it ended. */
  streamOpened(): void;
  /** The stream ended; `firstContentMs` is the time from the call's start to its first content, when any came. */
  streamClosed(firstContentMs: number | undefined): void;
}

/**
 * Tells `observer` of every attempt of a plan run, in order: the failures, each one followed by
 * another attempt being a failover, then the attempt that answered, if one did.
 */
export function reportAttempts(observer: CallObserver, failures: readonly AttemptFailure[], answered?: PlannedAttempt): void {
  const last = failures.length - 1;
  failures.forEach((failed, index) => observer.attemptFailed(failed, index < last || answered !== undefined));
  if (answered) observer.answered(answered);
}
