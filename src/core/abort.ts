/**
 * What ends work early, as the pipeline and the upstream transport read it: the part of `AbortSignal`
 * they use, so a real `AbortSignal` (a batch's, the restart's) is one as it is.
 */
export interface AbortLike {
  readonly aborted: boolean;
  readonly reason: unknown;
  addEventListener(type: 'abort', listener: () => void, options?: { once?: boolean }): void;
  removeEventListener(type: 'abort', listener: () => void): void;
}

/**
 * An abort made for every request (the caller leaving, one attempt upstream): a controller and its
 * signal in one object, with plain listeners. Node's `AbortSignal` costs microseconds to make and
 * to listen on (it is an `EventTarget`); this one costs an object. As with `AbortSignal`, listeners
 * run once, on the abort, and one added after it never runs.
 */
export class Abort implements AbortLike {
  #reason: unknown = undefined;
  #aborted = false;
  #listeners: (() => void)[] = [];

  get aborted(): boolean {
    return this.#aborted;
  }

  get reason(): unknown {
    return this.#reason;
  }

  /** Aborts with `reason` (by default an `AbortError`, as `AbortController.abort()` gives); a second call does nothing. */
  abort(reason: unknown = new DOMException('This operation was aborted', 'AbortError')): void {
    if (this.#aborted) return;
    this.#aborted = true;
    this.#reason = reason;
    const listeners = this.#listeners;
    this.#listeners = [];
    for (const listener of listeners) listener();
  }

  addEventListener(_type: 'abort', listener: () => void): void {
    if (!this.#aborted) this.#listeners.push(listener);
  }

  removeEventListener(_type: 'abort', listener: () => void): void {
    const index = this.#listeners.indexOf(listener);
    if (index >= 0) this.#listeners.splice(index, 1);
  }
}
