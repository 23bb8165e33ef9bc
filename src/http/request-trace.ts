import type { Logger } from 'pino';
import type { GatewayError } from '../core/errors.js';
import type { AttemptFailure, PlannedAttempt } from '../core/plan.js';
import type { CallObserver } from '../inference/observer.js';

/**
 * What the pipeline told about one HTTP request's call, kept for its log line (model, provider,
 * upstream attempts, time to first content), with a warning line for each failed attempt and for a
 * refusal; every event is passed on to the metrics.
 */
export class RequestTrace implements CallObserver {
  model?: string;
  /** Slug of the provider that served the answer. */
  provider?: string;
  attempts = 0;
  firstContentMs?: number;

  constructor(
    private readonly log: Pick<Logger, 'warn'>,
    private readonly metrics: CallObserver,
    private readonly generationId: string,
  ) {}

  refused(error: GatewayError): void {
    this.metrics.refused(error);
    const rejections = error.metadata.rejections;
    this.log.warn({
      generation_id: this.generationId,
      status: error.status,
      code: error.code,
      reason: error.message,
      ...(Array.isArray(rejections) && { rejections }),
    }, 'request refused');
  }

  attemptFailed(failed: AttemptFailure, failover: boolean): void {
    this.attempts += 1;
    this.metrics.attemptFailed(failed, failover);
    const { attempt, failure } = failed;
    this.log.warn({
      generation_id: this.generationId,
      provider: attempt.endpoint.provider.slug,
      endpoint: attempt.endpoint.id,
      reason: failure.kind,
      ...(failure.status !== undefined && { upstream_status: failure.status }),
      ...(failure.providerMessage !== undefined && { provider_message: failure.providerMessage }),
      failover,
    }, failover ? 'upstream attempt failed; trying the next endpoint' : 'upstream attempt failed');
  }

  answered(attempt: PlannedAttempt): void {
    this.attempts += 1;
    this.model = attempt.modelId;
    this.provider = attempt.endpoint.provider.slug;
    this.metrics.answered(attempt);
  }

  streamOpened(): void {
    this.metrics.streamOpened();
  }

  streamClosed(firstContentMs: number | undefined): void {
    if (firstContentMs !== undefined) this.firstContentMs = firstContentMs;
    this.metrics.streamClosed(firstContentMs);
  }
}
