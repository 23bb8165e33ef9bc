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

  it('counts the previous window while it still overlaps', () => {
    let now = 0;
    const limiter = new SlidingWindowLimiter(10, 60_000, () => now);
    for (let i = 0; i < 10; i += 1) limiter.takeNow('k');
    now = 60_000 + 6_000; // 90 % of the previous window still overlaps: 9 counted
    expect(limiter.takeNow('k').allowed).toBe(true);
    expect(limiter.takeNow('k').allowed).toBe(false);
    now = 180_000; // two windows later: nothing overlaps
    expect(limiter.takeNow('k').remaining).toBe(9);
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
