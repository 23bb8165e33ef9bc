import { errors as undiciErrors, type Dispatcher } from 'undici';

/** Bytes held unread before the provider's connection is paused (undici's own stream default). */
const HIGH_WATER_BYTES = 64 * 1024;

const UTF8_BOM = [0xef, 0xbb, 0xbf] as const;

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** What a body hands its chunks to as they arrive, once its reader switched to listening (`BodyChunks.listen`). */
export interface BodyListener {
  /** The next bytes. A promise answered holds the bytes after them until it settles (the listener's back-pressure). */
  chunk(bytes: Uint8Array): Promise<void> | undefined;
  /** Called once, last: the body ended (no error), failed or was destroyed. */
  end(error?: Error): void;
}

/** A body read chunk by chunk: pulled (`next`), or handed over as the chunks arrive from some point on (`listen`). */
export interface BodyChunks extends AsyncIterator<Uint8Array, undefined> {
  /** From now on every chunk goes to `listener` as it arrives, those held first; no read may be pending. */
  listen(listener: BodyListener): void;
}

/**
 * The body of one upstream response, fed by the dispatch handler as bytes arrive and read once:
 * chunk by chunk (`for await`), or whole with `text()` / `json()`.
 *
 * Read chunk by chunk, it holds at most about `HIGH_WATER_BYTES` before pausing the connection, and
 * resumes it once the reader has taken everything held; a read takes everything held, as one chunk.
 * Read whole, it keeps every chunk and decodes them once at the end. An upstream failure, `destroy()`
 * or the caller's abort drops what is held and is thrown to the reader; leaving a `for await` early
 * destroys the body, which aborts the request. Read chunk by chunk it is its own iterator, one await
 * per read (no generator between); a reader that switches to listening takes the chunks of each read
 * of the connection together, with no await at all.
 */
export class ResponseBody implements AsyncIterable<Uint8Array> {
  readonly #controller: Dispatcher.DispatchController;
  readonly #onClose: () => void;
  #chunks: Buffer[] = [];
  #heldBytes = 0;
  #ended = false;
  #closed = false;
  #error: Error | undefined;
  #read = false;
  /** Wakes the reader waiting for bytes, an end or an error. */
  #wake: (() => void) | undefined;
  /** Set once the reader listens: chunks, the end and a failure are handed to it as they come. */
  #listener: BodyListener | undefined;
  /** The listener's back-pressure: set while a promise it answered is pending. */
  #listenerFull = false;
  /** Set while chunks are being handed to the listener (a listener destroying the body is not handed the end inside its own call). */
  #handing = false;
  /** Set while a wake of the reader is queued for the chunks arriving together (`#wakeSoon`). */
  #wakeQueued = false;
  /** Set while `text()` / `json()` wait for the end. */
  #whole: { resolve(bytes: Buffer): void; reject(error: Error): void } | undefined;

  /** `onClose` runs once, when the body is read to its end, fails or is destroyed. */
  constructor(controller: Dispatcher.DispatchController, onClose: () => void) {
    this.#controller = controller;
    this.#onClose = onClose;
  }

  /** Takes the next bytes from the provider. */
  push(chunk: Buffer): void {
    if (this.#closed) return;
    this.#chunks.push(chunk);
    this.#heldBytes += chunk.length;
    if (this.#whole) return;
    if (this.#heldBytes > HIGH_WATER_BYTES) this.#controller.pause();
    this.#wakeSoon();
  }

  /** The provider sent the whole body. */
  end(): void {
    if (this.#closed) return;
    this.#ended = true;
    if (this.#whole) this.#settleWhole();
    else this.#wakeReader();
  }

  /** The request failed after its headers arrived (connection reset, body timeout): the reader gets `error`. */
  fail(error: Error): void {
    if (this.#closed) return;
    this.#error = error;
    this.#chunks = [];
    this.#heldBytes = 0;
    this.#whole?.reject(error);
    this.#whole = undefined;
    this.#wakeReader();
    this.#close();
  }

  /** Stops reading: an unfinished request is aborted and its connection freed; later reads throw `reason`. */
  destroy(reason?: Error): void {
    if (this.#closed) return;
    // made only here: an error captures its stack, and a body read to its end is destroyed as well
    const error = reason ?? new undiciErrors.RequestAbortedError();
    const unfinished = !this.#ended;
    this.fail(error);
    if (unfinished) this.#controller.abort(error);
  }

  [Symbol.asyncIterator](): BodyChunks {
    this.#claim();
    return {
      next: () => this.#next(),
      return: () => {
        this.destroy();
        return Promise.resolve(DONE);
      },
      listen: (listener) => {
        this.#listener = listener;
        this.#handOver();
      },
    };
  }

  /** The next bytes held, waiting for them when none are; a failed body (already let go) throws its error. */
  async #next(): Promise<IteratorResult<Uint8Array, undefined>> {
    for (;;) {
      const chunk = this.#take();
      if (chunk) return { done: false, value: chunk };
      if (this.#error) throw this.#error;
      if (this.#ended) {
        this.#close();
        return DONE;
      }
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  /** Hands the listener what is held, then the end or the failure, unless its back-pressure holds them. */
  #handOver(): void {
    const listener = this.#listener;
    if (!listener || this.#handing || this.#listenerFull) return;
    this.#handing = true;
    try {
      for (let chunk = this.#take(); chunk; chunk = this.#take()) {
        const full = listener.chunk(chunk);
        if (full) {
          this.#listenerFull = true;
          const resume = () => {
            this.#listenerFull = false;
            this.#handOver();
          };
          full.then(resume, resume);
          return;
        }
      }
      if (!this.#error && !this.#ended) return;
      this.#listener = undefined;
      if (!this.#error) this.#close();
      listener.end(this.#error);
    } finally {
      this.#handing = false;
    }
  }

  /** Everything held, as one chunk, if anything is; the connection resumes, since nothing is held any more. */
  #take(): Buffer | undefined {
    const chunks = this.#chunks;
    if (chunks.length === 0) return undefined;
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#heldBytes);
    this.#chunks = [];
    this.#heldBytes = 0;
    if (this.#controller.paused) this.#controller.resume();
    return bytes;
  }

  /** The whole body as UTF-8 text (a leading byte-order mark dropped). */
  async text(): Promise<string> {
    return decodeUtf8(await this.#wholeBytes());
  }

  /** The whole body parsed as JSON; a body that is not JSON rejects with the parser's SyntaxError. */
  async json(): Promise<unknown> {
    return JSON.parse(decodeUtf8(await this.#wholeBytes()));
  }

  #wholeBytes(): Promise<Buffer> {
    this.#claim();
    return new Promise((resolve, reject) => {
      this.#whole = { resolve, reject };
      if (this.#ended) this.#settleWhole();
      else if (this.#controller.paused) this.#controller.resume();
    });
  }

  #settleWhole(): void {
    const chunks = this.#chunks;
    const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, this.#heldBytes);
    this.#chunks = [];
    this.#heldBytes = 0;
    this.#whole?.resolve(bytes);
    this.#whole = undefined;
    this.#close();
  }

  /** A body is read once; a destroyed or failed body throws its error instead. */
  #claim(): void {
    if (this.#error) throw this.#error;
    if (this.#read) throw new TypeError('The upstream response body was already read');
    this.#read = true;
  }

  /**
   * Wakes the reader once the chunks arriving together are all held: the dispatch handler is given
   * the chunks of one read of the connection one by one, in one call, and they are taken as one.
   * Handed over each alone, a provider's frames became as many writes to the caller, each its own
   * piece of the socket's system call (20 of a 20-frame stream in one call), where one would do.
   */
  #wakeSoon(): void {
    if (this.#wakeQueued) return;
    this.#wakeQueued = true;
    queueMicrotask(() => {
      this.#wakeQueued = false;
      this.#wakeReader();
    });
  }

  #wakeReader(): void {
    if (this.#listener) {
      this.#handOver();
      return;
    }
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#onClose();
  }
}

function decodeUtf8(bytes: Buffer): string {
  const start = bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2] ? 3 : 0;
  return bytes.toString('utf8', start);
}
