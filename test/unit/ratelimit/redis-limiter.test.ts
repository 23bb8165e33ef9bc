import { describe, expect, it } from 'vitest';
import { randomHex } from '../../../src/core/random-hex.js';
import { RedisLimiter } from '../../../src/ratelimit/redis-limiter.js';
import { REDIS_REACHABLE, redisOpener, TEST_REDIS_URL } from '../../support/redis.js';
import { tcpRelay } from '../../support/tcp-relay.js';

describe.skipIf(!REDIS_REACHABLE)('the shared rate limit in Redis', () => {
  const openRedis = redisOpener();

  it('is exact across instances: three limiters on one Redis allow the limit in all, with the same headers', async () => {
    const name = `test-${randomHex(6)}`;
    const limiters = await Promise.all([1, 2, 3].map(async () => new RedisLimiter(await openRedis(), { name, limit: 10, instances: () => 3 })));
    const verdicts = await Promise.all(Array.from({ length: 30 }, (_, index) => limiters[index % 3]?.take('key:a')));
    expect(verdicts.filter((verdict) => verdict?.allowed)).toHaveLength(10);
    const refused = verdicts.find((verdict) => verdict && !verdict.allowed);
    expect(refused).toMatchObject({ limit: 10, remaining: 0 });
    expect(refused?.retryAfter).toBeGreaterThanOrEqual(1);
    expect(refused?.retryAfter).toBeLessThanOrEqual(60);
    const remaining = verdicts.filter((verdict) => verdict?.allowed).map((verdict) => verdict?.remaining).sort((a, b) => (a ?? 0) - (b ?? 0));
    expect(remaining).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect((await limiters[0]?.take('key:b'))?.allowed).toBe(true);
  });

  it('a Redis that lost its scripts (restarted, SCRIPT FLUSH) is sent the script again: never an error', async () => {
    const redis = await openRedis();
    const limiter = new RedisLimiter(redis, { name: `test-${randomHex(6)}`, limit: 5, instances: () => 1 });
    expect((await limiter.take('key:a')).remaining).toBe(4);
    await redis.script('FLUSH');
    expect((await limiter.take('key:a')).remaining).toBe(3);
    expect(limiter.fallingBack).toBe(false);
  });

  it('while Redis cannot be reached each instance allows limit ÷ N on its own, says so once, and returns to the shared window', async () => {
    const target = new URL(TEST_REDIS_URL);
    const proxy = await tcpRelay(target.hostname, Number(target.port || 6379));
    try {
      const told: boolean[] = [];
      const redis = await openRedis({ url: `redis://${proxy.address}` });
      const limiter = new RedisLimiter(redis, { name: `test-${randomHex(6)}`, limit: 9, instances: () => 3, onFallback: (falling) => told.push(falling) });
      expect((await limiter.take('key:a')).remaining).toBe(8);
      proxy.cut();
      await expect.poll(() => redis.status).not.toBe('ready');
      const local = await Promise.all(Array.from({ length: 5 }, () => limiter.take('key:a')));
      expect(local.map((verdict) => verdict.allowed)).toEqual([true, true, true, false, false]);
      expect(local[0]?.limit).toBe(3);
      expect(limiter.fallingBack).toBe(true);
      proxy.restore();
      await expect.poll(() => redis.status, { timeout: 10_000 }).toBe('ready');
      expect((await limiter.take('key:a'))).toMatchObject({ allowed: true, limit: 9, remaining: 7 });
      expect(told).toEqual([true, false]);
    } finally {
      await proxy.close();
    }
  });
});
