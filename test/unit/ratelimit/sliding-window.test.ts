import { describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../../src/ratelimit/sliding-window.js';
import { addressIdentity } from '../../../src/ratelimit/client-address.js';

describe('sliding-window rate limits', () => {
  it('refuses the request past the limit with a Retry-After', () => {
    let now = 1_000_000;
    const limiter = new SlidingWindowLimiter(3, 60_000, () => now);
    expect([1, 2, 3].map(() => limiter.takeNow('k').allowed)).toEqual([true, true, true]);
    const refused = limiter.takeNow('k');
    expect(refused.allowed).toBe(false);
    expect(refused.remaining).toBe(0);
    expect(refused.retryAfter).toBeGreaterThan(0);
    now += 1;
    expect(limiter.takeNow('other').allowed).toBe(true);
  });

  it('counts every request of the last 60 seconds, and none older', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(10, 60_000, () => now);
    for (let i = 0; i < 10; i += 1) {
      now = i * 1_000;
      expect(limiter.takeNow('k').remaining).toBe(9 - i);
    }
    now = 59_999;
    expect(limiter.takeNow('k')).toMatchObject({ allowed: false, retryAfter: 1, resetAt: 60 });
    now = 60_000; // the first request has left the window: one slot
    expect(limiter.takeNow('k')).toMatchObject({ allowed: true, remaining: 0 });
    expect(limiter.takeNow('k').allowed).toBe(false);
    now = 180_000;
    expect(limiter.takeNow('k').remaining).toBe(9);
  });

  it('a burst at the end of one clock minute leaves no room at the start of the next', () => {
    let now = 50_000;
    const limiter = new SlidingWindowLimiter(120, 60_000, () => now);
    for (let i = 0; i < 120; i += 1) expect(limiter.takeNow('address').allowed).toBe(true);
    now = 80_000;
    expect(limiter.takeNow('address')).toMatchObject({ allowed: false, retryAfter: 30, resetAt: 110 });
    now = 109_999;
    expect(limiter.takeNow('address').allowed).toBe(false);
    now = 110_000;
    for (let i = 0; i < 120; i += 1) expect(limiter.takeNow('address').allowed).toBe(true);
    expect(limiter.takeNow('address').allowed).toBe(false);
  });

  it('a lowered limit refuses until enough counted requests have left the window', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(5, 60_000, () => now);
    for (let i = 0; i < 5; i += 1) {
      now = i * 1_000;
      limiter.takeNow('k');
    }
    limiter.setLimit(2);
    now = 10_000;
    // four of the five must leave: the fourth, counted at 3 s, leaves at 63 s
    expect(limiter.takeNow('k')).toMatchObject({ allowed: false, limit: 2, retryAfter: 53 });
    now = 63_000;
    expect(limiter.takeNow('k')).toMatchObject({ allowed: true, remaining: 0 });
  });

  it('take answers the same verdicts asynchronously, as every limiter does', async () => {
    const now = 0;
    const limiter = new SlidingWindowLimiter(1, 60_000, () => now);
    expect((await limiter.take('k')).allowed).toBe(true);
    expect(await limiter.take('k')).toMatchObject({ allowed: false, limit: 1, remaining: 0 });
  });

  it('limits an IPv6 client by its /64 prefix and an IPv4 client by its address', () => {
    expect(addressIdentity('2001:db8:1:2:aaaa::1')).toBe(addressIdentity('2001:db8:1:2:bbbb::9'));
    expect(addressIdentity('2001:db8:1:3::1')).not.toBe(addressIdentity('2001:db8:1:2::1'));
    expect(addressIdentity('::ffff:10.0.0.1')).toBe('10.0.0.1');
  });
});
