import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server.js';
import { catalogueYaml } from '../e2e/harness.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE, type ScratchDatabase } from '../support/store-engines.js';
import { REDIS_REACHABLE, TEST_REDIS_URL } from '../support/redis.js';
import { tcpRelay, type TcpRelay } from '../support/tcp-relay.js';

const LIMIT = 12;

describe.skipIf(!POSTGRES_REACHABLE || !REDIS_REACHABLE)('Redis stopped and back, under three instances', () => {
  let sim: RunningSimulator;
  let database: ScratchDatabase;
  let keyStore: ScratchDatabase;
  let relay: TcpRelay;
  const gateways: RunningGateway[] = [];

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    database = await freshPostgresDatabase();
    keyStore = await freshPostgresDatabase();
    const redis = new URL(TEST_REDIS_URL);
    relay = await tcpRelay(redis.hostname, Number(redis.port || 6379));
    const dir = await mkdtemp(join(tmpdir(), 'switchyard-fleet-'));
    const configPath = join(dir, 'catalogue.yaml');
    await writeFile(configPath, catalogueYaml(sim.url, [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }], {
      settings: { rate_limits: { per_key_per_minute: LIMIT } },
    }));
    for (let index = 0; index < 3; index += 1) {
      gateways.push(await startGateway({
        configPath, port: 0, databaseUrl: database.url, keyStoreUrl: keyStore.url, redisUrl: `redis://${relay.address}`,
        logger: pino({ level: 'silent' }), watch: false, recovery: { heartbeatMs: 100 },
        env: { ...process.env, SWITCHYARD_MASTER_KEY: Buffer.alloc(32, 9).toString('base64') },
      }));
    }
  }, 60_000);

  afterAll(async () => {
    for (const gateway of gateways) await gateway.close();
    await relay?.close();
    await sim?.close();
    await database?.drop();
    await keyStore?.drop();
  });

  async function keyRequest(gateway: RunningGateway | undefined, key: string): Promise<{ status: number; limit: string | null }> {
    const response = await fetch(`${gateway?.url}/api/v1/key`, { headers: { authorization: `Bearer ${key}` } });
    await response.arrayBuffer();
    return { status: response.status, limit: response.headers.get('x-ratelimit-limit') };
  }

  it('each instance enforces its share (limit ÷ 3) while Redis is away, never a 500, says so in /readyz and /metrics, and shares the limit again once it is back', async () => {
    const [first] = gateways;
    if (!first) throw new Error('no gateway');
    const { key } = await createAccount(first.store, { name: 'outage', creditsUsd: '5' });
    expect(await keyRequest(first, key)).toEqual({ status: 200, limit: String(LIMIT) });
    relay.cut();
    const during = await Promise.all(Array.from({ length: 3 * LIMIT }, (_, index) => keyRequest(gateways[index % 3], key)));
    expect(during.every((reply) => reply.status === 200 || reply.status === 429)).toBe(true);
    expect(during.filter((reply) => reply.status === 200)).toHaveLength(LIMIT);
    expect(new Set(during.map((reply) => reply.limit))).toEqual(new Set([String(LIMIT / 3)]));
    const ready = await fetch(`${first.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(((await ready.json()) as { checks: Array<{ name: string; ok: boolean }> }).checks).toContainEqual(expect.objectContaining({ name: 'redis', ok: false }));
    expect(await (await fetch(`${first.url}/metrics`)).text()).toMatch(/^switchyard_rate_limit_fallback 1$/m);
    relay.restore();
    const { key: fresh } = await createAccount(first.store, { name: 'after', creditsUsd: '5' });
    await expect.poll(async () => (await keyRequest(first, fresh)).limit, { timeout: 15_000, interval: 200 }).toBe(String(LIMIT));
    expect(await (await fetch(`${first.url}/metrics`)).text()).toMatch(/^switchyard_rate_limit_fallback 0$/m);
  }, 60_000);
});
