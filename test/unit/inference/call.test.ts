import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import type { KeyContext } from '../../../src/accounts/types.js';
import type { Hold, HoldRequest, Ledger } from '../../../src/billing/types.js';
import { Abort } from '../../../src/core/abort.js';
import { attemptSignal, type InferenceCall } from '../../../src/inference/call.js';
import { CallState } from '../../../src/inference/call-state.js';
import { prepareInference } from '../../../src/inference/prepare.js';
import { LiveEndpointState } from '../../../src/stats/endpoint-state.js';
import { chatCatalogue, endpoint } from '../../fixtures/planner/catalogue-yaml.js';
import { chatRequest } from '../../fixtures/planner/planning.js';
import { RecordingObserver } from './recording-observer.js';

const KEY: KeyContext = {
  keyId: 'key-1', hash: 'hash-1', accountId: 'acct-1', workspaceId: 'ws-1', name: 'test', label: 'sk-…', management: false, scopeLimits: {}, expiresAt: null,
};

/** A ledger that holds anything and records nothing. */
const LEDGER: Ledger = {
  hold: (request: HoldRequest): Promise<Hold> => Promise.resolve({ ...request, id: 'hold-1', heldAt: new Date(), expiresAt: new Date(Date.now() + 60_000) }),
  settle: () => Promise.resolve(),
  release: () => Promise.resolve(),
  recordRefusal: () => Promise.resolve(),
  releaseExpired: () => Promise.resolve(0),
};

/** A call as the HTTP layer makes it: its caller's signal an `Abort`, aborted when the caller leaves. */
function httpCall(restart: AbortSignal): InferenceCall & { signal: Abort } {
  return { key: KEY, generationId: 'gen-1', signal: new Abort(), restart, observer: new RecordingObserver() };
}

/** The state of `call` once held, as the pipeline would hold it. */
async function heldState(call: InferenceCall): Promise<CallState> {
  const catalogue = chatCatalogue(endpoint('alpha'));
  const prepared = await prepareInference({ catalogue: { current: () => catalogue }, state: new LiveEndpointState(), ledger: LEDGER }, call, chatRequest({ maxTokens: 10 }));
  return new CallState(prepared, false);
}

const RealAbortController = globalThis.AbortController;

/** How many AbortControllers `work` makes. */
function controllersMadeBy(work: () => void): number {
  let made = 0;
  globalThis.AbortController = class extends RealAbortController {
    constructor() {
      super();
      made += 1;
    }
  };
  try {
    work();
  } finally {
    globalThis.AbortController = RealAbortController;
  }
  return made;
}

describe('the attempt signal of an HTTP call', () => {
  it('a caller leaving aborts the attempt and the caller signal, not the restart: recorded cancelled with 408', async () => {
    const restart = new AbortController();
    const call = httpCall(restart.signal);
    const state = await heldState(call);
    const attempt = attemptSignal(call);
    call.signal.abort();
    expect(attempt.signal.aborted).toBe(true);
    expect(call.signal.aborted).toBe(true);
    expect(state.endedEarly()).toBe(true);
    expect(state.cancelled).toBe(true);
    expect(state.error?.status).toBe(408);
    attempt.release();
  });

  it('a restart aborts the attempt but not the caller signal: recorded as cut by the restart with 503, not cancelled', async () => {
    const restart = new AbortController();
    const call = httpCall(restart.signal);
    const state = await heldState(call);
    const attempt = attemptSignal(call);
    restart.abort();
    expect(attempt.signal.aborted).toBe(true);
    expect(call.signal.aborted).toBe(false);
    expect(state.endedEarly()).toBe(true);
    expect(state.cancelled).toBe(false);
    expect(state.error?.status).toBe(503);
    attempt.release();
  });

  it('a caller leaving runs each listener once with an AbortError; one removed, or added after, never runs', () => {
    const caller = new Abort();
    const heard: string[] = [];
    const removed = () => heard.push('removed');
    caller.addEventListener('abort', () => heard.push('first'));
    caller.addEventListener('abort', removed);
    caller.removeEventListener('abort', removed);
    caller.abort();
    caller.abort();
    caller.addEventListener('abort', () => heard.push('late'));
    expect(heard).toEqual(['first']);
    expect(caller.aborted).toBe(true);
    expect(caller.reason).toMatchObject({ name: 'AbortError' });
  });

  it('an attempt begun after the caller left, or after the restart, is aborted at once', () => {
    const left = httpCall(new AbortController().signal);
    left.signal.abort();
    expect(attemptSignal(left).signal.aborted).toBe(true);
    const restarted = httpCall(AbortSignal.abort());
    expect(attemptSignal(restarted).signal.aborted).toBe(true);
    expect(restarted.signal.aborted).toBe(false);
  });

  it('a released attempt is aborted neither by the caller leaving later nor by the restart', () => {
    const restart = new AbortController();
    const call = httpCall(restart.signal);
    const attempt = attemptSignal(call);
    attempt.release();
    call.signal.abort();
    restart.abort();
    expect(attempt.signal.aborted).toBe(false);
  });

  it('makes no AbortController (an EventTarget costs microseconds per request): the caller and the attempt are plain aborts', () => {
    const restart = new AbortController();
    const call = httpCall(restart.signal);
    expect(controllersMadeBy(() => attemptSignal(call).release())).toBe(0);
  });
});

describe('the attempt signal of a call whose signal is an AbortSignal (a batch request)', () => {
  it('aborts when the call signal aborts, and not once released', () => {
    const caller = new AbortController();
    const call = { signal: caller.signal, restart: new AbortController().signal };
    const released = attemptSignal(call);
    released.release();
    const attempt = attemptSignal(call);
    caller.abort();
    expect(attempt.signal.aborted).toBe(true);
    expect(released.signal.aborted).toBe(false);
  });
});

describe('the restart signal', () => {
  it('gets one listener however many attempts are in flight, and aborts all of them', () => {
    const restart = new AbortController();
    const attempts = Array.from({ length: 50 }, () => attemptSignal(httpCall(restart.signal)));
    expect(getEventListeners(restart.signal, 'abort')).toHaveLength(1);
    for (const attempt of attempts.slice(0, 10)) attempt.release();
    restart.abort();
    expect(attempts.filter((attempt) => attempt.signal.aborted)).toHaveLength(40);
  });
});
