import type { RateLimiter, WindowVerdict } from './rate-limiter.js';

/** The times of one identity's counted requests, oldest first; those before `first` have left the window. */
interface RequestLog {
  times: number[];
  first: number;
}

/** Left entries are dropped from a log's front once they are this many and half of it. */
const COMPACT_AFTER = 32;

/**
 * A sliding-window request counter per identity, in memory and exact: a request is allowed while
 * fewer than `limit` requests were counted in the `windowMs` before it, whenever in the window
 * they came. Each identity keeps the times of its counted requests still in the window (at most
 * `limit`; a refused request is not counted); identities idle for a whole window are swept.
 */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly logs = new Map<string, RequestLog>();
  private lastSweep = 0;

  constructor(
    private currentLimit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  get limit(): number {
    return this.currentLimit;
  }

  /** A new limit for every identity from the next request on; what was counted stays counted. */
  setLimit(limit: number): void {
    this.currentLimit = limit;
  }

  take(identity: string): Promise<WindowVerdict> {
    return Promise.resolve(this.takeNow(identity));
  }

  /** `take`, answered at once. */
  takeNow(identity: string): WindowVerdict {
    const at = this.now();
    this.sweep(at);
    const log = this.logOf(identity, at);
    const used = log.times.length - log.first;
    if (used >= this.limit) {
      // a slot frees when enough of the oldest requests leave the window to bring the count below the limit
      const freesAt = (log.times[log.first + used - this.limit] ?? at) + this.windowMs;
      return { allowed: false, limit: this.limit, remaining: 0, resetAt: Math.ceil(freesAt / 1000), retryAfter: Math.max(1, Math.ceil((freesAt - at) / 1000)) };
    }
    log.times.push(at);
    const resetAt = Math.ceil(((log.times[log.first] ?? at) + this.windowMs) / 1000);
    return { allowed: true, limit: this.limit, remaining: this.limit - used - 1, resetAt, retryAfter: 0 };
  }

  /** The identity's log with the requests that have left the window dropped. */
  private logOf(identity: string, at: number): RequestLog {
    let log = this.logs.get(identity);
    if (!log) {
      log = { times: [], first: 0 };
      this.logs.set(identity, log);
    }
    const leftBefore = at - this.windowMs;
    while (log.first < log.times.length && (log.times[log.first] ?? at) <= leftBefore) log.first += 1;
    if (log.first >= COMPACT_AFTER && log.first * 2 >= log.times.length) {
      log.times.splice(0, log.first);
      log.first = 0;
    }
    return log;
  }

  private sweep(at: number): void {
    if (at - this.lastSweep < this.windowMs) return;
    this.lastSweep = at;
    for (const [identity, log] of this.logs) {
      if ((log.times.at(-1) ?? at - this.windowMs) <= at - this.windowMs) this.logs.delete(identity);
    }
  }
}
