import type { GatewayError } from '../core/errors.js';
import type { UpstreamFailure } from '../core/events.js';
import type { AttemptFailure, PlannedAttempt } from '../core/plan.js';
import type { CallObserver } from '../inference/observer.js';

/** Where a probe's upstream calls are counted beside the requests' own (the metrics). */
export type AttemptCounter = Pick<CallObserver, 'attemptFailed' | 'answered'>;

/**
 * What a probe's call tells while it runs: its upstream failures, kept for the judgement (a
 * provider refusing the request refutes a promise, an outage does not). Its upstream attempts are
 * real calls of the endpoint and are counted as such; a probe is no caller, so its refusals and
 * streams are not counted as requests.
 */
export class ProbeObserver implements CallObserver {
  readonly failures: UpstreamFailure[] = [];

  constructor(private readonly attempts?: AttemptCounter) {}

  refused(_error: GatewayError): void {
    // a probe refused before any upstream call is judged from its error alone
  }

  attemptFailed(failed: AttemptFailure, failover: boolean): void {
    this.failures.push(failed.failure);
    this.attempts?.attemptFailed(failed, failover);
  }

  answered(attempt: PlannedAttempt): void {
    this.attempts?.answered(attempt);
  }

  streamOpened(): void {
    // not a caller's stream
  }

  streamClosed(_firstContentMs: number | undefined): void {
    // not a caller's stream
  }
}
