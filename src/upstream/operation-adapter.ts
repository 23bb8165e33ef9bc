import type { UpstreamFailure } from '../core/events.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { UpstreamRequest } from './types.js';

/** A decoded reply of a non-conversation call: its result, or why this endpoint failed. */
export type OperationReply<Result> = { ok: true; result: Result } | { ok: false; failure: UpstreamFailure };

/**
 * One wire format's translation of one operation (embeddings, rerank): pure, no I/O. `Ask` is the
 * operation's decoded request, `Result` what the dialect encoder renders.
 */
export interface OperationAdapter<Ask, Result, Piece = never> {
  buildRequest(ask: Ask, attempt: PlannedAttempt): UpstreamRequest;
  decodeReply(json: unknown, ask: Ask): OperationReply<Result>;
  decodeError(status: number, bodyText: string, headers: Record<string, string>): UpstreamFailure;
  /** Present where the wire can answer the operation as an event stream (image generation's partial pictures). */
  streaming?: OperationStreaming<Ask, Result, Piece>;
}

/** What a streamed operation reply carries: pieces shown as they come (partial pictures), then the whole result. */
export type OperationStreamEvent<Result, Piece> =
  | { type: 'piece'; piece: Piece }
  | { type: 'result'; result: Result }
  | { type: 'error'; failure: UpstreamFailure };

/** Turns one attempt's event-stream frames into operation events; stateful, one per attempt. */
export interface OperationStreamDecoder<Result, Piece> {
  frame(data: string, event?: string): OperationStreamEvent<Result, Piece>[];
  /** The stream ended: the result, or an `incomplete` error when it never came. */
  end(): OperationStreamEvent<Result, Piece>[];
}

export interface OperationStreaming<Ask, Result, Piece> {
  /** Whether this attempt is sent as a stream (its endpoint declares it); otherwise its whole reply is the stream's one result. */
  streams(ask: Ask, attempt: PlannedAttempt): boolean;
  buildStreamRequest(ask: Ask, attempt: PlannedAttempt): UpstreamRequest;
  createStreamDecoder(ask: Ask): OperationStreamDecoder<Result, Piece>;
}

/** The adapter serving an operation over one endpoint's wire format; undefined when none does. */
export type OperationAdapterLookup<Ask, Result, Piece = never> = (attempt: PlannedAttempt) => OperationAdapter<Ask, Result, Piece> | undefined;

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
