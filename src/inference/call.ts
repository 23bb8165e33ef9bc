import type { KeyContext } from '../accounts/types.js';
import { GatewayError } from '../core/errors.js';
import type { CallObserver } from './observer.js';

/** One request as the pipeline runs it: who asks, under which generation id, and what ends it early. */
export interface InferenceCall {
  key: KeyContext;
  generationId: string;
  /** Aborted when the caller goes away before the answer was delivered. */
  signal: AbortSignal;
  /** Aborted when a draining instance stops waiting for requests in flight. */
  restart: AbortSignal;
  /** Told of the call's refusal, attempts and stream (the request log, the metrics). */
  observer: CallObserver;
  /** Told of each phase the call enters once held (a batch records its requests' states by it). */
  onPhase?: (phase: CallPhase) => void;
}

/**
 * Where a held call is in its life: `held` (routed and funded, nothing answered yet), `answered`
 * (an endpoint's answer committed), `ended` (the answer, or the lack of one, is known in full),
 * `settled` (charged or released, and recorded). Each moves only forward.
 */
export type CallPhase = 'held' | 'answered' | 'ended' | 'settled';

/** A signal for the upstream work of a call: aborted by the caller leaving or by the restart. */
export interface AttemptSignal {
  signal: AbortSignal;
  /** Lets go of the long-lived restart signal; call once the answer ended. */
  release(): void;
}

/**
 * Joins the caller's signal and the restart. The listener on the restart signal is removed by
 * `release`: `AbortSignal.any` would leave one entry per request on it for the life of the process.
 */
export function attemptSignal(call: Pick<InferenceCall, 'signal' | 'restart'>): AttemptSignal {
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (call.signal.aborted || call.restart.aborted) controller.abort();
  else {
    call.signal.addEventListener('abort', abort, { once: true });
    call.restart.addEventListener('abort', abort, { once: true });
  }
  return {
    signal: controller.signal,
    release() {
      call.signal.removeEventListener('abort', abort);
      call.restart.removeEventListener('abort', abort);
    },
  };
}

/** What a caller who left before the answer finished is recorded with (spec 02: 408 `timeout`). */
export function clientAbortedError(): GatewayError {
  return new GatewayError('client_timeout', 'Request aborted client-side before it finished');
}
