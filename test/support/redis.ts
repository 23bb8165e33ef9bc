import { Redis } from 'ioredis';
import { afterEach } from 'vitest';

/** The Redis server the tests use; CI starts one (see .ci/run). */
export const TEST_REDIS_URL = process.env.SWITCHYARD_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/**
 * Whether the test Redis answers. Where it does not, the Redis tests are skipped with the reason
 * printed, except under CI=true, where CI has started one: there the suite fails.
 */
async function redisReachable(): Promise<boolean> {
  const client = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    const reason = `no Redis server at ${TEST_REDIS_URL} (${String(error)})`;
    if (process.env.CI === 'true') throw new Error(`CI=true requires Redis for the fleet tests: ${reason}`);
    console.warn(`Redis tests skipped: ${reason}`);
    return false;
  } finally {
    client.disconnect();
  }
}

export const REDIS_REACHABLE = await redisReachable();

/** Opens clients to the test Redis, each disconnected after the test that opened it. */
export function redisOpener(): (options?: { url?: string }) => Promise<Redis> {
  const opened: Redis[] = [];
  afterEach(() => {
    for (const client of opened.splice(0)) client.disconnect();
  });
  return async (options = {}) => {
    const client = new Redis(options.url ?? TEST_REDIS_URL, { maxRetriesPerRequest: 0, enableOfflineQueue: false, lazyConnect: true });
    opened.push(client);
    await client.connect().catch(() => undefined);
    return client;
  };
}
