import type { CoreEvent } from '../core/events.js';
import { SseFrameReader, type SseFrame } from '../upstream/sse-frames.js';
import { transportFailure } from '../upstream/transport.js';
import type { StreamDecoder, UpstreamAdapter } from '../upstream/types.js';

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

/**
 * The events of a streamed reply, those of one upstream read together: each read costs one step
 * through the pipeline however many frames it carried, and one await in all (bytes are framed and
 * decoded in the same step). A read ends at an error event, which also releases the body; an idle
 * timeout is an error event; any other failure of the body ends the stream as the decoder judges
 * its end. Leaving early (`return`) releases the body.
 */
export class UpstreamEvents implements AsyncIterableIterator<CoreEvent[], undefined> {
  readonly #bytes: AsyncIterator<Uint8Array>;
  readonly #frames = new SseFrameReader();
  readonly #decoder: StreamDecoder;
  /** Events put back to be read first. */
  #unread: CoreEvent[] | undefined;
  /** Nothing more comes from the body: it ended, failed, or an error event was read. */
  #finished = false;

  constructor(adapter: UpstreamAdapter, body: AsyncIterable<Uint8Array>) {
    this.#decoder = adapter.createStreamDecoder();
    this.#bytes = body[Symbol.asyncIterator]();
  }

  [Symbol.asyncIterator](): this {
    return this;
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
      let read: IteratorResult<Uint8Array>;
      try {
        read = await this.#bytes.next();
      } catch (error) {
        this.#finished = true;
        const failure = transportFailure(error);
        const events: CoreEvent[] = failure.kind === 'timeout' ? [{ type: 'error', failure }] : this.#decoder.end();
        return events.length > 0 ? { done: false, value: events } : DONE;
      }
      const events = read.done ? this.#decoded(this.#frames.end()) : this.#decoded(this.#frames.feed(read.value));
      if (read.done && !this.#finished) {
        this.#finished = true;
        events.push(...this.#decoder.end());
      }
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

  /** Lets go of the body: an unfinished upstream request is aborted. */
  async #release(): Promise<void> {
    await this.#bytes.return?.().catch(() => undefined);
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
}
