import type { GatewayError } from '../../../src/core/errors.js';
import type { AttemptFailure, PlannedAttempt } from '../../../src/core/plan.js';
import type { CallObserver } from '../../../src/inference/observer.js';

/** A call observer that writes down what it was told, in order, as short strings. */
export class RecordingObserver implements CallObserver {
  readonly heard: string[] = [];

  refused(error: GatewayError): void {
    this.heard.push(`refused ${error.code}`);
  }

  attemptFailed(failed: AttemptFailure, failover: boolean): void {
    this.heard.push(`failed ${failed.attempt.endpoint.id} ${failed.failure.kind}${failover ? ' failover' : ''}`);
  }

  answered(attempt: PlannedAttempt): void {
    this.heard.push(`answered ${attempt.endpoint.id}`);
  }

  streamOpened(): void {
    this.heard.push('stream opened');
  }

  streamClosed(firstContentMs: number | undefined): void {
    this.heard.push(`stream closed${firstContentMs === undefined ? '' : ' after content'}`);
  }
}
