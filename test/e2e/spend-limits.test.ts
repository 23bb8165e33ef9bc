import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey } from '../../src/accounts/accounts.js';
import { CLI_CHANGE } from '../../src/accounts/audit.js';
import { setSpendLimit } from '../../src/accounts/spend-limits.js';
import { parseUsd } from '../../src/billing/money.js';
import { GATEWAY_DATABASES, type ScratchDatabase } from '../support/store-engines.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness, type RawReply } from './harness.js';

describe.each(GATEWAY_DATABASES)('spend limits through the gateway, on $name', (engine) => {
  let harness: Harness;
  let database: ScratchDatabase;

  beforeAll(async () => {
    database = await engine.open();
    harness = await startHarness({
      databaseUrl: database.url,
      credits: '100',
      models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3;ttft=150' }] }],
    });
  });

  afterAll(async () => {
    await harness.close();
    await database.drop();
  });

  function chat(key: string, body: Record<string, unknown> = {}): Promise<RawReply> {
    return send(harness, { path: '/chat/completions', key, body: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], max_tokens: 100, ...body } });
  }

  /** A new workspace of the test account with one key in it. */
  async function workspaceWithKey(name: string): Promise<{ workspaceId: string; key: string }> {
    const workspaceId = `ws_${name}`;
    await harness.gateway.store.db.insertInto('workspaces')
      .values({ id: workspaceId, account_id: harness.accountId, name, routing_defaults: null, created_at: Date.now(), limit_units: null, limit_reset: null }).execute();
    const { key } = await createKey(harness.gateway.store, { accountId: harness.accountId, workspaceId });
    return { workspaceId, key };
  }

  /** What one request of this test holds: read back from its generation. */
  async function heldByOneRequest(key: string): Promise<bigint> {
    const reply = await chat(key);
    expect(reply.status).toBe(200);
    const row = await harness.gateway.store.db.selectFrom('generations').select('held_units')
      .where('id', '=', reply.headers.get('x-generation-id') ?? '').executeTakeFirstOrThrow();
    return BigInt(row.held_units ?? '0');
  }

  it('64 concurrent requests against a workspace limit that covers 10 never overspend it; every refusal is a 402 naming the workspace', async () => {
    const calibration = await workspaceWithKey('calibration');
    const held = await heldByOneRequest(calibration.key);
    const limited = await workspaceWithKey('limited');
    const limit = held * 10n;
    await setSpendLimit(harness.gateway.store, { scope: 'workspace', workspaceId: limited.workspaceId }, { limit, reset: 'daily' }, CLI_CHANGE);
    const replies = await Promise.all(Array.from({ length: 64 }, () => chat(limited.key)));
    const served = replies.filter((reply) => reply.status === 200);
    expect(served.length).toBeGreaterThanOrEqual(10);
    for (const reply of replies.filter((candidate) => candidate.status !== 200)) {
      expect(reply.status).toBe(402);
      const { metadata } = (reply.json as ErrorEnvelope).error;
      expect(metadata).toMatchObject({ error_type: 'payment_required', scope: 'workspace', limit: limit.toString(), limit_reset: 'daily' });
      expect(BigInt(metadata.used as string)).toBeGreaterThan(0n);
    }
    const charged = await harness.gateway.store.db.selectFrom('generations').select('cost_units')
      .where('workspace_id', '=', limited.workspaceId).execute();
    const total = charged.reduce((sum, row) => sum + BigInt(row.cost_units), 0n);
    expect(total).toBeGreaterThan(0n);
    expect(total).toBeLessThanOrEqual(limit);
    expect((await accountMoney(harness)).reserved).toBe(0n);
  });

  it('a key refused by its limit reports what it used, the amounts in USD and the largest max_tokens that would fit', async () => {
    const { key } = await createKey(harness.gateway.store, { accountId: harness.accountId, limitUsd: '0.0005', limitReset: 'weekly' });
    expect((await chat(key, { max_tokens: 10 })).status).toBe(200);
    const refused = await chat(key, { max_tokens: 1000 });
    expect(refused.status).toBe(402);
    const { error } = refused.json as ErrorEnvelope;
    expect(error.metadata).toMatchObject({ scope: 'key', limit: parseUsd('0.0005').toString(), limit_reset: 'weekly' });
    const used = BigInt(error.metadata.used as string);
    expect(used).toBeGreaterThan(0n);
    expect(error.message).toMatch(/spend limit: [\d.]+ of 0\.0005 USD used or held, this request needs up to [\d.]+ USD; a max_tokens of (\d+) or less would fit/);
    const fitting = Number(/a max_tokens of (\d+)/.exec(error.message)?.[1]);
    expect(fitting).toBeGreaterThan(0);
    expect(fitting).toBeLessThan(1000);
    expect((await chat(key, { max_tokens: fitting + 1 })).status).toBe(402);
    expect((await chat(key, { max_tokens: fitting })).status).toBe(200);
    const inspected = await send(harness, { path: '/key', key });
    const record = (inspected.json as { data: { limit: number; limit_remaining: number; usage_weekly: number } }).data;
    expect(record.limit).toBe(0.0005);
    expect(record.limit_remaining).toBeCloseTo(0.0005 - record.usage_weekly, 12);
  });

  it('a 402 for the balance states the amounts in USD and the largest max_tokens that would fit', async () => {
    const { accountId, key } = await createAccount(harness.gateway.store, { name: 'Poor', creditsUsd: '0.0001' });
    const refused = await chat(key, { max_tokens: 10_000 });
    expect(refused.status).toBe(402);
    const { error } = refused.json as ErrorEnvelope;
    expect(error.message).toMatch(/^Insufficient credits: this request needs up to [\d.]+ USD and 0\.0001 USD is spendable; add credits to continue; a max_tokens of \d+ or less would fit$/);
    const fitting = Number(/a max_tokens of (\d+)/.exec(error.message)?.[1]);
    expect((await chat(key, { max_tokens: fitting })).status).toBe(200);
    expect((await accountMoney(harness, accountId)).reserved).toBe(0n);
  });
});
