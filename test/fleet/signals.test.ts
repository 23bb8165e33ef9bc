import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey, revokeKey } from '../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../src/accounts/audit.js';
import type { RunningGateway } from '../../src/runtime/gateway.js';
import { openStore } from '../../src/store/store.js';
import { POSTGRES_REACHABLE } from '../support/store-engines.js';
import { REDIS_REACHABLE, TEST_REDIS_URL } from '../support/redis.js';
import { FLEET_MODELS, startFleet, type Fleet } from './fleet.js';

/** No rate limit in the way: each instance is asked again and again until it refuses. */
const UNLIMITED = 1_000_000;

describe.skipIf(!POSTGRES_REACHABLE || !REDIS_REACHABLE)('changes told to a fleet of three', () => {
  let fleet: Fleet;
  let gateways: RunningGateway[];
  let accountId: string;

  beforeAll(async () => {
    fleet = await startFleet({ redisUrl: TEST_REDIS_URL, perKeyPerMinute: UNLIMITED, perAddressPerMinute: UNLIMITED });
    gateways = fleet.gateways;
    const [gateway] = gateways;
    if (!gateway) throw new Error('no gateway');
    accountId = (await createAccount(gateway.store, { name: 'revocation', creditsUsd: '1' })).accountId;
  }, 60_000);

  afterAll(async () => {
    await fleet?.close();
  });

  /** How long after `since` each instance first refuses `key` (polled without pause), at most `limitMs`. */
  async function refusedAfter(key: string, since: number, limitMs = 1_000): Promise<number[]> {
    return Promise.all(gateways.map(async (gateway) => {
      for (;;) {
        const response = await fetch(`${gateway.url}/api/v1/models/user`, { headers: { authorization: `Bearer ${key}` } });
        await response.arrayBuffer();
        const elapsed = Date.now() - since;
        if (response.status === 401) return elapsed;
        expect(response.status).toBe(200);
        if (elapsed > limitMs) return Number.POSITIVE_INFINITY;
      }
    }));
  }

  async function keySignalsHeard(gateway: RunningGateway): Promise<number> {
    const metrics = await (await fetch(`${gateway.url}/metrics`)).text();
    return Number(/^switchyard_fleet_signal_delay_seconds_count\{signal="keys"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
  }

  it('a key revoked through one instance\'s API is refused by it on the next request and by every other within a second (told over Redis)', async () => {
    const gateway = gateways[0];
    if (!gateway) throw new Error('no gateway');
    const other = await createKey(gateway.store, { accountId, name: 'doomed' }, CLI_CHANGE);
    const manager = await createKey(gateway.store, { accountId, name: 'manager', management: true }, CLI_CHANGE);
    expect(await refusedAfter(other.key, Date.now(), 0)).toEqual([Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]);
    const deleted = await fetch(`${gateway.url}/api/v1/keys/${other.hash}`, { method: 'DELETE', headers: { authorization: `Bearer ${manager.key}` } });
    expect(deleted.status).toBe(200);
    const revoked = Date.now();
    const status = (await fetch(`${gateway.url}/api/v1/models/user`, { headers: { authorization: `Bearer ${other.key}` } })).status;
    expect(status).toBe(401);
    const delays = await refusedAfter(other.key, revoked);
    expect(delays.every((delay) => delay <= 1_000), `refused after ${delays.join(', ')} ms`).toBe(true);
    // told, not polled: the other two heard the signal
    for (const listener of gateways.slice(1)) expect(await keySignalsHeard(listener)).toBeGreaterThan(0);
  });

  it('a key revoked by the admin command line (another process, no signal) is refused by every instance within a second', async () => {
    const gateway = gateways[0];
    if (!gateway) throw new Error('no gateway');
    const other = await createKey(gateway.store, { accountId, name: 'doomed by the command line' }, CLI_CHANGE);
    expect(await refusedAfter(other.key, Date.now(), 0)).toEqual([Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY, Number.POSITIVE_INFINITY]);
    const cli = await openStore(fleet.databaseUrl, { migrate: false });
    try {
      expect(await revokeKey(cli, { accountId, hash: other.hash }, CLI_CHANGE)).toBe(true);
    } finally {
      await cli.close();
    }
    const delays = await refusedAfter(other.key, Date.now());
    expect(delays.every((delay) => delay <= 1_000), `refused after ${delays.join(', ')} ms`).toBe(true);
  });

  it('a catalogue reloaded on one instance (SIGHUP) is read again by the others, told over Redis', async () => {
    const [first, ...others] = gateways;
    if (!first) throw new Error('no gateway');
    const listed = async (gateway: RunningGateway) => ((await (await fetch(`${gateway.url}/api/v1/models`)).json()) as { data: Array<{ id: string }> }).data.map((model) => model.id);
    expect(await listed(first)).not.toContain('acme/second');
    await fleet.writeCatalogue([...FLEET_MODELS, { id: 'acme/second', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }]);
    // the instances do not watch the file: only the one told by SIGHUP reads it on its own
    await first.reload('SIGHUP');
    expect(await listed(first)).toContain('acme/second');
    for (const gateway of others) await expect.poll(() => listed(gateway), { timeout: 5_000, interval: 50 }).toContain('acme/second');
  });
});
