import type { CoreEvent } from '../core/events.js';
import type { BodyChunks } from '../upstream/response-body.js';
import { SseFrameReader, type SseFrame } from '../upstream/sse-frames.js';
import { transportFailure } from '../upstream/transport.js';
import type { StreamDecoder, UpstreamAdapter } from '../upstream/types.js';

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/** A step answering it stops the reads: nothing more is handed over, and the upstream body is let go. */
export const STOP = Symbol('stop');

/** What a step over a stream's reads answers: go on (nothing), wait for this first (the output's back-pressure), or stop. */
export type ReadStep = Promise<void> | undefined | typeof STOP;

/** A committed stream's reads, as the pipeline takes them. */
export interface StreamReads {
  /**
   * Hands each read's events to `step`, in order; resolves once they end (the last step's
   * back-pressure waited for) or `step` stopped them, rejects with what `step` threw. The upstream
   * body is let go either way.
   */
  each(step: (events: CoreEvent[]) => ReadStep): Promise<void>;
}

/** Hands the reads of `reads` to `step` one await at a time (reads that cannot be handed over as they arrive). */
export async function eachPulled(reads: AsyncIterator<CoreEvent[], undefined>, step: (events: CoreEvent[]) => ReadStep): Promise<void> {
  try {
    for (let read = await reads.next(); !read.done; read = await reads.next()) {
      const next = step(read.value);
      if (next === STOP) return;
      if (next) await next;
    }
  } finally {
    await reads.return?.();
  }
}

/**
 * The events of a streamed reply, those of one upstream read together: each read costs one step
 * through the pipeline however many frames it carried. Before the stream commits they are pulled
 * (`next`), one await a read; once it committed, `each` has the body hand every read over as it
 * arrives, framed, decoded and stepped through in the same call, with no await at all. A read ends
 * at an error event, which also releases the body; an idle timeout is an error event; any other
 * failure of the body ends the stream as the decoder judges its end. Leaving early (`return`)
 * releases the body.
 */
export class UpstreamEvents implements AsyncIterator<CoreEvent[], undefined>, StreamReads {
  readonly #bytes: AsyncIterator<Uint8Array, undefined> & Partial<Pick<BodyChunks, 'listen'>>;
  readonly #frames = new SseFrameReader();
  readonly #decoder: StreamDecoder;
  /** Events put back to be read first. */
  #unread: CoreEvent[] | undefined;
  /** Nothing more comes from the body: it ended, failed, an error event was read, or the reads were stopped. */
  #finished = false;

  constructor(adapter: UpstreamAdapter, body: AsyncIterable<Uint8Array>) {
    this.#decoder = adapter.createStreamDecoder();
    this.#bytes = body[Symbol.asyncIterator]();
  }

  /** Puts events already read back in front, as one read (those read before the stream committed). */
  unread(events: CoreEvent[]): void {
    this.#unread = events;
  }

  async next(): Promise<IteratorResult<CoreEvent[], undefined>> {
    const unread = this.#unread;
    if (unread) {
      this.#unread = undefined;
      return { done: false, value: unread };
    }
    while (!this.#finished) {
      let read: IteratorResult<Uint8Array, undefined>;
      try {
        read = await this.#bytes.next();
      } catch (error) {
        const events = this.#failedWith(error);
        return events.length > 0 ? { done: false, value: events } : DONE;
      }
      const events = read.done ? this.#ending() : this.#decoded(this.#frames.feed(read.value));
      if (events.length > 0) return { done: false, value: events };
    }
    return DONE;
  }

  async return(): Promise<IteratorReturnResult<undefined>> {
    this.#unread = undefined;
    this.#finished = true;
    await this.#release();
    return DONE;
  }

  async each(step: (events: CoreEvent[]) => ReadStep): Promise<void> {
    const bytes = this.#bytes;
    if (!bytes.listen) return eachPulled(this, step);
    try {
      const unread = this.#unread;
      this.#unread = undefined;
      const next = unread && step(unread);
      if (next === STOP) return;
      if (next) await next;
      if (!this.#finished) await this.#listen(bytes as BodyChunks, step);
    } finally {
      await this.return();
    }
  }

  /** Has the body hand each chunk over as it arrives, stepping through its events in the same call. */
  #listen(bytes: BodyChunks, step: (events: CoreEvent[]) => ReadStep): Promise<void> {
    return new Promise((resolve, reject) => {
      const hand = (events: CoreEvent[]): Promise<void> | undefined => {
        const next = events.length > 0 ? step(events) : undefined;
        if (next === STOP) {
          this.#finished = true;
          resolve();
          return undefined;
        }
        if (!this.#finished) return next;
        // the last read: done once the output took it
        if (next) next.then(() => resolve(), reject);
        else resolve();
        return undefined;
      };
      const failed = (error: unknown): undefined => {
        this.#finished = true;
        reject(error);
        return undefined;
      };
      bytes.listen({
        chunk: (chunk) => {
          if (this.#finished) return undefined;
          try {
            return hand(this.#decoded(this.#frames.feed(chunk)));
          } catch (error) {
            return failed(error);
          }
        },
        end: (error) => {
          if (this.#finished) return;
          try {
            hand(error ? this.#failedWith(error) : this.#ending());
          } catch (thrown) {
            failed(thrown);
          }
        },
      });
    });
  }

  /** The events of `frames`, up to an error event, which finishes the stream. */
  #decoded(frames: readonly SseFrame[]): CoreEvent[] {
    const events: CoreEvent[] = [];
    for (const frame of frames) {
      for (const event of this.#decoder.frame(frame.data, frame.event)) {
        events.push(event);
        if (event.type === 'error') {
          this.#finished = true;
          void this.#release();
          return events;
        }
      }
    }
    return events;
  }

  /** The body ended: the frames its last bytes completed, then the decoder's closing events (none after an error event). */
  #ending(): CoreEvent[] {
    const events = this.#decoded(this.#frames.end());
    if (this.#finished) return events;
    this.#finished = true;
    events.push(...this.#decoder.end());
    return events;
  }

  /** The body failed: an idle timeout is an error event; any other failure ends the stream as the decoder judges its end. */
  #failedWith(error: unknown): CoreEvent[] {
    this.#finished = true;
    const failure = transportFailure(error);
    return failure.kind === 'timeout' ? [{ type: 'error', failure }] : this.#decoder.end();
  }

  /** Lets go of the body: an unfinished upstream request is aborted. */
  async #release(): Promise<void> {
    await this.#bytes.return?.().catch(() => undefined);
  }
}
