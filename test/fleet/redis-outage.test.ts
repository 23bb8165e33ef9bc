import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey, revokeKey } from '../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../src/accounts/audit.js';
import { openStore } from '../../src/store/store.js';
import type { RunningGateway } from '../../src/runtime/gateway.js';
import { POSTGRES_REACHABLE } from '../support/store-engines.js';
import { startFleet, type Fleet } from './fleet.js';
import { REDIS_REACHABLE, TEST_REDIS_URL } from '../support/redis.js';
import { tcpRelay, type TcpRelay } from '../support/tcp-relay.js';

const LIMIT = 12;

describe.skipIf(!POSTGRES_REACHABLE || !REDIS_REACHABLE)('Redis stopped and back, under three instances', () => {
  let fleet: Fleet;
  let gateways: RunningGateway[];
  let relay: TcpRelay;

  beforeAll(async () => {
    const redis = new URL(TEST_REDIS_URL);
    relay = await tcpRelay(redis.hostname, Number(redis.port || 6379));
    // heartbeats every 100 ms: each instance soon counts the other two alive
    fleet = await startFleet({ redisUrl: `redis://${relay.address}`, perKeyPerMinute: LIMIT, recovery: { heartbeatMs: 100 } });
    gateways = fleet.gateways;
  }, 60_000);

  afterAll(async () => {
    await fleet?.close();
    await relay?.close();
  });

  async function keyRequest(gateway: RunningGateway | undefined, key: string): Promise<{ status: number; limit: string | null }> {
    const response = await fetch(`${gateway?.url}/api/v1/key`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    return { status: response.status, limit: response.headers.get('x-ratelimit-limit') };
  }

  async function listening(gateway: RunningGateway): Promise<number> {
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    return Number(/^switchyard_fleet_signals_listening (\d)$/m.exec(metrics)?.[1]);
  }

  it('each instance enforces its share (limit ÷ 3) while Redis is away, never a 500, says so in /readyz and /metrics, honours a revocation on the next request by reading the database, and shares the limit and hears signals again once it is back', async () => {
    const [first] = gateways;
    if (!first) throw new Error('no gateway');
    const { key, accountId } = await createAccount(first.store, { name: 'outage', creditsUsd: '5' });
    expect(await keyRequest(first, key)).toEqual({ status: 200, limit: String(LIMIT) });
    relay.cut();
    const during = await Promise.all(Array.from({ length: 3 * LIMIT }, (_, index) => keyRequest(gateways[index % 3], key)));
    expect(during.every((reply) => reply.status === 200 || reply.status === 429)).toBe(true);
    expect(during.filter((reply) => reply.status === 200)).toHaveLength(LIMIT);
    expect(new Set(during.map((reply) => reply.limit))).toEqual(new Set([String(LIMIT / 3)]));
    const ready = await fetch(`${first.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: Array<{ name: string; ok: boolean }> }).checks).toContainEqual(expect.objectContaining({ name: 'redis', ok: false }));
    const metrics = await (await fetch(`${first.url}/metrics`)).text();
    expect(metrics).toMatch(/^switchyard_rate_limit_fallback 1$/m);
    expect(metrics).toMatch(/^switchyard_dependency_up\{dependency="redis"\} 0$/m);
    expect(metrics).toMatch(/^switchyard_dependency_up\{dependency="database"\} 1$/m);
    expect(metrics).toMatch(/^switchyard_live_instances 3$/m);
    // no signal can be heard: each key cache reads the key revision again on every turn, so a key
    // revoked by another process is refused by every instance on its very next request
    for (const gateway of gateways) await expect.poll(async () => listening(gateway), { timeout: 5_000, interval: 50 }).toBe(0);
    const doomed = await createKey(first.store, { accountId, name: 'doomed' }, CLI_CHANGE);
    expect((await keyRequest(gateways[1], doomed.key)).status).toBe(200);
    const cli = await openStore(fleet.databaseUrl, { migrate: false });
    await revokeKey(cli, { accountId, hash: doomed.hash }, CLI_CHANGE).finally(() => cli.close());
    expect(await Promise.all(gateways.map(async (gateway) => (await keyRequest(gateway, doomed.key)).status))).toEqual([401, 401, 401]);
    relay.restore();
    const { key: fresh } = await createAccount(first.store, { name: 'after', creditsUsd: '5' });
    await expect.poll(async () => (await keyRequest(first, fresh)).limit, { timeout: 15_000, interval: 200 }).toBe(String(LIMIT));
    const after = await (await fetch(`${first.url}/metrics`)).text();
    expect(after).toMatch(/^switchyard_rate_limit_fallback 0$/m);
    expect(after).toMatch(/^switchyard_dependency_up\{dependency="redis"\} 1$/m);
    for (const gateway of gateways) await expect.poll(async () => listening(gateway), { timeout: 15_000, interval: 200 }).toBe(1);
  }, 60_000);
});
