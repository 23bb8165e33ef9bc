import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import type { Store } from '../../src/store/store.js';
import { PRIVATE_REDIS_AVAILABLE, startPrivateRedis, type PrivateRedis } from '../support/private-redis.js';
import { POSTGRES_REACHABLE } from '../support/store-engines.js';
import { askChat, fleetClient, type ChatOutcome } from './fleet-client.js';
import { startFleetOnTestDatabase, type FleetOnTestDatabase, type ProcessFleet } from './fleet-processes.js';

/**
 * The Redis of three instances (child processes) killed and started again under a steady load of
 * chats: while it is away each instance enforces its share of the key limit (limit ÷ 3, and says so
 * in X-RateLimit-Limit, /readyz and /metrics) and keeps serving; once it is back (empty, its script
 * cache gone) the limit is shared again; never a 500 anywhere. The Redis is a private server of the
 * test's own.
 */

const MODEL = 'acme/chat';
const LIMIT = 12;
const CHAT = { model: MODEL, messages: [{ role: 'user' as const, content: 'Hi' }], max_tokens: 4 };
/** Heartbeats every 100 ms: each instance soon counts the other two alive, so its share is limit ÷ 3. */
const RECOVERY = { heartbeatMs: 100 } satisfies Partial<RecoverySettings>;

interface Counted {
  status: number;
  limit: string | null;
}

async function keyRequest(url: string, key: string): Promise<Counted> {
  const response = await fetch(`${url}/api/v1/key`, { headers: { authorization: `Bearer ${key}` } });
  await response.arrayBuffer();
  return { status: response.status, limit: response.headers.get('x-ratelimit-limit') };
}

async function redisCheck(url: string): Promise<{ status: number; redisOk: boolean | undefined }> {
  const response = await fetch(`${url}/readyz`);
  const { checks } = (await response.json()) as { checks: Array<{ name: string; ok: boolean }> };
  return { status: response.status, redisOk: checks.find((check) => check.name === 'redis')?.ok };
}

async function fallbackGauge(url: string): Promise<string | undefined> {
  return /^switchyard_rate_limit_fallback (\d+)$/m.exec(await (await fetch(`${url}/metrics`)).text())?.[1];
}

describe.skipIf(!POSTGRES_REACHABLE || !PRIVATE_REDIS_AVAILABLE)('the Redis of three instances killed and restarted under load', () => {
  let redis: PrivateRedis;
  let running: FleetOnTestDatabase;
  let store: Store;
  let fleet: ProcessFleet;

  beforeAll(async () => {
    redis = await startPrivateRedis();
    running = await startFleetOnTestDatabase({
      models: [{ id: MODEL, endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }],
      settings: { rate_limits: { per_key_per_minute: LIMIT } },
      redisUrl: redis.url, recovery: RECOVERY,
    });
    ({ store, fleet } = running);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
    await redis?.close();
  });

  it('each instance enforces limit ÷ 3 while Redis is away and keeps serving, says so in /readyz and /metrics, shares the limit again once Redis is back, and never answers a 500', async () => {
    const { urls } = fleet;
    const fresh = async (name: string) => (await createAccount(store, { name, creditsUsd: '5' })).key;
    /** 3 × LIMIT requests of a fresh key, spread over the three instances. */
    const spread = async (key: string) => Promise.all(Array.from({ length: 3 * LIMIT }, (_, index) => keyRequest(urls[index % 3] ?? '', key)));
    const onEach = async <T>(read: (url: string) => Promise<T>, want: T, what: string) => {
      for (let round = 0; round < 300; round += 1) {
        if ((await Promise.all(urls.map(read))).every((seen) => seen === want)) return;
        await sleep(50);
      }
      throw new Error(`not every instance ${what}`);
    };

    // a steady load of chats on a key of its own, through every phase
    const loadKey = await fresh('load');
    const load: ChatOutcome[] = [];
    let loading = true;
    const callers = urls.map(async (url) => {
      const client = fleetClient(url, loadKey);
      while (loading) {
        load.push(await askChat(client, CHAT));
        await sleep(20);
      }
    });
    try {
      // shared: 12 across the three
      await onEach(async (url) => (await redisCheck(url)).redisOk, true, 'reached Redis at the start');
      const before = await spread(await fresh('before'));
      expect(before.filter((reply) => reply.status === 200)).toHaveLength(LIMIT);
      expect(new Set(before.map((reply) => reply.limit))).toEqual(new Set([String(LIMIT)]));

      // Redis killed: each instance counts alone, at its share, and says so
      await redis.stop();
      await onEach(async (url) => (await redisCheck(url)).redisOk, false, 'noticed Redis was gone');
      const during = await spread(await fresh('during'));
      expect(during.every((reply) => reply.status === 200 || reply.status === 429), JSON.stringify(during)).toBe(true);
      expect(during.filter((reply) => reply.status === 200)).toHaveLength(LIMIT);
      expect(new Set(during.map((reply) => reply.limit))).toEqual(new Set([String(LIMIT / 3)]));
      for (const url of urls) {
        expect(await redisCheck(url)).toEqual({ status: 200, redisOk: false });
        expect(await fallbackGauge(url)).toBe('1');
      }

      // Redis back, empty and without the script: shared again, the full limit in the headers
      await redis.start();
      await onEach(async (url) => (await redisCheck(url)).redisOk, true, 'reached Redis again');
      const after = await spread(await fresh('after'));
      expect(after.every((reply) => reply.status === 200 || reply.status === 429), JSON.stringify(after)).toBe(true);
      expect(after.filter((reply) => reply.status === 200)).toHaveLength(LIMIT);
      expect(new Set(after.map((reply) => reply.limit))).toEqual(new Set([String(LIMIT)]));
      for (const url of urls) expect(await fallbackGauge(url)).toBe('0');
    } finally {
      loading = false;
      await Promise.all(callers);
    }

    // the load ran through it all: served or refused by the limit, never a 500 (a NOSCRIPT included)
    const statuses = new Map<string, number>();
    for (const outcome of load) statuses.set(String(outcome.status), (statuses.get(String(outcome.status)) ?? 0) + 1);
    console.log(`fleet redis-restart: load of ${load.length} chats answered ${JSON.stringify(Object.fromEntries(statuses))}`);
    expect(load.filter((outcome) => outcome.status !== 200 && outcome.status !== 429).map((outcome) => outcome.message)).toEqual([]);
    expect(load.some((outcome) => outcome.status === 200)).toBe(true);
  }, 60_000);
});
