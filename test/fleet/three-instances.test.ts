import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey } from '../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../src/accounts/audit.js';
import { parseUsd } from '../../src/billing/money.js';
import type { RunningGateway } from '../../src/runtime/gateway.js';
import { POSTGRES_REACHABLE } from '../support/store-engines.js';
import { startFleet, type Fleet } from './fleet.js';
import { REDIS_REACHABLE, TEST_REDIS_URL } from '../support/redis.js';

const LIMIT = 12;

describe.skipIf(!POSTGRES_REACHABLE || !REDIS_REACHABLE)('three instances on one PostgreSQL and one Redis', () => {
  let fleet: Fleet;
  let gateways: RunningGateway[];
  let key: string;
  let accountId: string;

  beforeAll(async () => {
    fleet = await startFleet({ redisUrl: TEST_REDIS_URL, perKeyPerMinute: LIMIT });
    gateways = fleet.gateways;
    const [gateway] = gateways;
    if (!gateway) throw new Error('no gateway');
    const account = await createAccount(gateway.store, { name: 'fleet', creditsUsd: '5' });
    key = account.key;
    accountId = account.accountId;
  }, 60_000);

  afterAll(async () => {
    await fleet?.close();
  });

  it('a key limited to 12 requests a minute gets 12 across the three, not 36, with the same headers from each', async () => {
    const replies = await Promise.all(Array.from({ length: 3 * LIMIT }, async (_, index) => {
      const gateway = gateways[index % 3];
      const response = await fetch(`${gateway?.url}/api/v1/key`, { headers: { authorization: `Bearer ${key}` } });
      await response.arrayBuffer();
      return { status: response.status, limit: response.headers.get('x-ratelimit-limit'), remaining: response.headers.get('x-ratelimit-remaining') };
    }));
    expect(replies.filter((reply) => reply.status === 200)).toHaveLength(LIMIT);
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(2 * LIMIT);
    expect(new Set(replies.map((reply) => reply.limit))).toEqual(new Set([String(LIMIT)]));
    expect(replies.filter((reply) => reply.status === 200).map((reply) => Number(reply.remaining)).sort((a, b) => a - b)).toEqual(Array.from({ length: LIMIT }, (_, index) => index));
    const ready = await fetch(`${gateways[1]?.url}/readyz`).then((response) => response.json()) as { checks: Array<{ name: string; ok: boolean }> };
    expect(ready.checks).toContainEqual({ name: 'redis', ok: true });
  });

  it('a key\'s spend limit holds however its requests are spread: concurrent chats over the three never charge past it', async () => {
    const gateway = gateways[0];
    if (!gateway) throw new Error('no gateway');
    const limited = await createKey(gateway.store, { accountId, name: 'limited', limitUsd: '0.0001' }, CLI_CHANGE);
    const statuses = await Promise.all(Array.from({ length: 10 }, async (_, index) => {
      const response = await fetch(`${gateways[index % 3]?.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${limited.key}`, 'content-type': 'application/json' },
        // each answer takes a moment, so all ten are held at once
        body: JSON.stringify({ model: 'acme/chat', messages: [{ role: 'user', content: '[[sim ttft=400]] Hi' }], max_tokens: 4 }),
      });
      const text = await response.text();
      if (response.status !== 200 && response.status !== 402) throw new Error(`${response.status} ${text}`);
      return response.status;
    }));
    expect(statuses.filter((status) => status === 200).length).toBeGreaterThan(0);
    expect(statuses.filter((status) => status === 402).length).toBeGreaterThan(0);
    expect(statuses.every((status) => status === 200 || status === 402)).toBe(true);
    const charged = await gateway.store.db.selectFrom('generations').select('cost_units').where('key_id', '=', limited.id).execute();
    expect(charged.reduce((sum, row) => sum + BigInt(row.cost_units), 0n) <= parseUsd('0.0001')).toBe(true);
  });
});
