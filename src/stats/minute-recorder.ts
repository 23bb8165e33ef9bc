import type { EndpointSample, SampleRecorder } from './endpoint-sample.js';
import { FigureBucket } from './figure-bucket.js';

export const MINUTE_MS = 60_000;

/** The minute (since the epoch) holding `ms`. */
export function minuteOf(ms: number): number {
  return Math.floor(ms / MINUTE_MS);
}

/** One endpoint's samples of one minute, once the minute is over (or the instance stops). */
export interface ClosedBucket {
  endpointId: string;
  minute: number;
  bucket: FigureBucket;
}

/**
 * Records samples into the current minute's bucket of each endpoint: a map lookup, a few counts and
 * at most three sketch insertions per sample. A sample of a later minute closes the endpoint's
 * bucket; `takeClosed` hands out every closed bucket (also those of endpoints that went quiet).
 */
export class MinuteRecorder implements SampleRecorder {
  readonly #open = new Map<string, { minute: number; bucket: FigureBucket }>();
  #closed: ClosedBucket[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  record(endpointId: string, sample: EndpointSample): void {
    const minute = minuteOf(this.now());
    let open = this.#open.get(endpointId);
    if (open === undefined || open.minute !== minute) {
      if (open !== undefined) this.#closed.push({ endpointId, minute: open.minute, bucket: open.bucket });
      open = { minute, bucket: new FigureBucket() };
      this.#open.set(endpointId, open);
    }
    open.bucket.add(sample);
  }

  /** Every bucket of a minute before `now`'s; with `all`, the current minute's too (the instance stops). */
  takeClosed(now: number, options: { all?: boolean } = {}): ClosedBucket[] {
    const minute = minuteOf(now);
    for (const [endpointId, open] of this.#open) {
      if (options.all || open.minute < minute) {
        this.#closed.push({ endpointId, minute: open.minute, bucket: open.bucket });
        this.#open.delete(endpointId);
      }
    }
    const closed = this.#closed;
    this.#closed = [];
    return closed;
  }

  /** Buckets taken but not stored (the database did not answer): handed out again next time. */
  giveBack(buckets: readonly ClosedBucket[]): void {
    this.#closed.push(...buckets);
  }
}
