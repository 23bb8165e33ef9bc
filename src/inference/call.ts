import type { KeyContext } from '../accounts/types.js';
import { Abort, type AbortLike } from '../core/abort.js';
import { GatewayError } from '../core/errors.js';
import type { CallObserver } from './observer.js';

/** One request as the pipeline runs it: who asks, under which generation id, and what ends it early. */
export interface InferenceCall {
  key: KeyContext;
  generationId: string;
  /** Aborted when the caller goes away before the answer was delivered (over HTTP an `Abort`, made per request). */
  signal: AbortLike;
  /** Aborted when a draining instance stops waiting for requests in flight. */
  restart: AbortLike;
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

/** Lets go of whatever aborted an attempt; calling it again does nothing. */
type Release = () => void;

const NOTHING_TO_RELEASE: Release = () => undefined;

/** A signal for the upstream work of a call: aborted by the caller leaving or by the restart. */
export interface AttemptSignal {
  signal: AbortLike;
  /** Lets go of the caller and of the long-lived restart signal; call once the answer ended. */
  release(): void;
}

/**
 * Joins the caller's signal and the restart (an `Abort`, see core/abort.ts: made on every request).
 * No listener per request is left on the long-lived restart signal, nor added to it:
 * `AbortSignal.any` would leave one entry per request on it for the life of the process, and adding
 * and removing one per request walks the listeners of every request in flight. The attempts in
 * flight are kept in a set instead, which `release` leaves.
 */
export function attemptSignal(call: Pick<InferenceCall, 'signal' | 'restart'>): AttemptSignal {
  const attempt = new Abort();
  const releaseCaller = abortWith(call.signal, attempt);
  const releaseRestart = abortWith(call.restart, attempt);
  return {
    signal: attempt,
    release() {
      releaseCaller();
      releaseRestart();
    },
  };
}

/** The attempts in flight under each signal `abortWith` joined them to. */
const joinedAttempts = new WeakMap<AbortLike, Set<Abort>>();

/** Aborts `attempt` when `signal` aborts, at once when it did already. */
function abortWith(signal: AbortLike, attempt: Abort): Release {
  if (signal.aborted) {
    attempt.abort();
    return NOTHING_TO_RELEASE;
  }
  if (signal instanceof Abort) {
    // a signal of one request: a listener of its own costs less than a set kept for it
    const abort = () => attempt.abort();
    signal.addEventListener('abort', abort);
    return () => signal.removeEventListener('abort', abort);
  }
  const attempts = attemptsJoinedTo(signal);
  attempts.add(attempt);
  return () => {
    attempts.delete(attempt);
  };
}

/** The set of attempts joined to `signal`, made with the one listener that aborts them all. */
function attemptsJoinedTo(signal: AbortLike): Set<Abort> {
  const known = joinedAttempts.get(signal);
  if (known) return known;
  const attempts = new Set<Abort>();
  signal.addEventListener('abort', () => {
    for (const attempt of attempts) attempt.abort();
    attempts.clear();
  }, { once: true });
  joinedAttempts.set(signal, attempts);
  return attempts;
}

/** What a caller who left before the answer finished is recorded with (spec 02: 408 `timeout`). */
export function clientAbortedError(): GatewayError {
  return new GatewayError('client_timeout', 'Request aborted client-side before it finished');
}
