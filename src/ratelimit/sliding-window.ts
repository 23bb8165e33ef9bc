import type { RateLimiter, WindowVerdict } from './rate-limiter.js';

interface Counter {
  windowStart: number;
  current: number;
  previous: number;
}

/**
 * A sliding-window request counter per identity, in memory: the current fixed window's count plus
 * the previous window's count weighted by how much of it still overlaps the sliding window.
 * O(1) memory per identity; identities idle for two windows are swept.
 */
export class SlidingWindowLimiter implements RateLimiter {
  private readonly counters = new Map<string, Counter>();
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
    const counter = this.roll(identity, at);
    const overlap = 1 - (at - counter.windowStart) / this.windowMs;
    const used = Math.floor(counter.previous * overlap) + counter.current;
    const resetAt = Math.ceil((counter.windowStart + this.windowMs) / 1000);
    if (used >= this.limit) {
      return { allowed: false, limit: this.limit, remaining: 0, resetAt, retryAfter: Math.max(1, resetAt - Math.floor(at / 1000)) };
    }
    counter.current += 1;
    return { allowed: true, limit: this.limit, remaining: Math.max(0, this.limit - used - 1), resetAt, retryAfter: 0 };
  }

  private roll(identity: string, at: number): Counter {
    const windowStart = at - (at % this.windowMs);
    const counter = this.counters.get(identity);
    if (!counter) {
      const fresh = { windowStart, current: 0, previous: 0 };
      this.counters.set(identity, fresh);
      return fresh;
    }
    if (counter.windowStart !== windowStart) {
      counter.previous = windowStart - counter.windowStart === this.windowMs ? counter.current : 0;
      counter.current = 0;
      counter.windowStart = windowStart;
    }
    return counter;
  }

  private sweep(at: number): void {
    if (at - this.lastSweep < this.windowMs) return;
    this.lastSweep = at;
    for (const [identity, counter] of this.counters) {
      if (at - counter.windowStart >= 2 * this.windowMs) this.counters.delete(identity);
    }
  }
}
