import { createServer, Socket, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { randomHex } from '../../../src/core/random-hex.js';
import { RedisLimiter } from '../../../src/ratelimit/redis-limiter.js';
import { REDIS_REACHABLE, redisOpener, TEST_REDIS_URL } from '../../support/redis.js';

/** A TCP relay to the test Redis that the test can cut and restore (Redis unreachable, then back). */
async function relay(): Promise<{ url: string; cut(): void; restore(): void; close(): Promise<void> }> {
  const target = new URL(TEST_REDIS_URL);
  const sockets = new Set<Socket>();
  let open = true;
  const server: Server = createServer((client) => {
    if (!open) {
      client.destroy();
      return;
    }
    const upstream = new Socket();
    upstream.connect(Number(target.port || 6379), target.hostname);
    client.pipe(upstream).pipe(client);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${port}`,
    cut() {
      open = false;
      for (const socket of sockets) socket.destroy();
    },
    restore() {
      open = true;
    },
    close: () => new Promise((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    }),
  };
}

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
    const proxy = await relay();
    try {
      const told: boolean[] = [];
      const redis = await openRedis({ url: proxy.url });
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
