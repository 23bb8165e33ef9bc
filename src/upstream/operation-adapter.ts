import type { UpstreamFailure } from '../core/events.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { UpstreamRequest } from './types.js';

/** A decoded reply of a non-conversation call: its result, or why this endpoint failed. */
export type OperationReply<Result> = { ok: true; result: Result } | { ok: false; failure: UpstreamFailure };

/**
 * One wire format's translation of one operation (embeddings, rerank): pure, no I/O. `Ask` is the
 * operation's decoded request, `Result` what the dialect encoder renders.
 */
export interface OperationAdapter<Ask, Result> {
  buildRequest(ask: Ask, attempt: PlannedAttempt): UpstreamRequest;
  decodeReply(json: unknown, ask: Ask): OperationReply<Result>;
  decodeError(status: number, bodyText: string, headers: Record<string, string>): UpstreamFailure;
}

/** The adapter serving an operation over one endpoint's wire format; undefined when none does. */
export type OperationAdapterLookup<Ask, Result> = (attempt: PlannedAttempt) => OperationAdapter<Ask, Result> | undefined;

/**
 * An endpoint answering that it has no such route or method (404, 405, 501) does not serve the
 * operation: a 502-class failure, and routing moves on to the next endpoint.
 */
export function notServedFailure(operation: string, status: number, bodyText: string): UpstreamFailure | undefined {
  if (status !== 404 && status !== 405 && status !== 501) return undefined;
  return { kind: 'protocol', status, retryable: true, providerMessage: `the endpoint does not serve ${operation}`, raw: bodyText };
}

/** A reply that does not have the operation's shape: 502-class, routing moves on. */
export function unreadableReply(operation: string, json: unknown): { ok: false; failure: UpstreamFailure } {
  return {
    ok: false,
    failure: { kind: 'protocol', retryable: true, providerMessage: `The provider reply is not a ${operation} result`, raw: JSON.stringify(json) ?? '' },
  };
}
