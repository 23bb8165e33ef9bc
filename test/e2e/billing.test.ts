import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey, revokeKey, type CreatedAccount } from '../../src/accounts/accounts.js';
import { parseUsd } from '../../src/billing/money.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness, type RawReply } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] }],
  });
});

afterAll(async () => harness.close());

function chat(key: string | null, body: Record<string, unknown>): Promise<RawReply> {
  return send(harness, { path: '/chat/completions', key, body: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], ...body } });
}

async function keyUsage(key: string): Promise<number> {
  const reply = await send(harness, { path: '/key', key });
  expect(reply.status).toBe(200);
  return (reply.json as { data: { usage: number } }).data.usage;
}

function account(credits: string): Promise<CreatedAccount> {
  return createAccount(harness.gateway.store, { name: `credits ${credits}`, creditsUsd: credits });
}

describe('402 when the credit hold exceeds what is spendable', () => {
  it('answers payment_required with integer-string required and spendable, contacting no provider', async () => {
    const poor = await account('0.000001');
    harness.sim.clearRequests();
    const reply = await chat(poor.key, {});
    expect(reply.status).toBe(402);
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.code).toBe(402);
    expect(error.metadata.error_type).toBe('payment_required');
    const { required, spendable } = error.metadata;
    expect(required).toMatch(/^\d+$/);
    expect(spendable).toMatch(/^\d+$/);
    expect(BigInt(required as string)).toBeGreaterThan(BigInt(spendable as string));
    expect(BigInt(spendable as string)).toBe(parseUsd('0.000001'));
    expect(harness.sim.requests()).toHaveLength(0);
    const money = await accountMoney(harness, poor.accountId);
    expect(money).toEqual({ balance: parseUsd('0.000001'), reserved: 0n });
    expect(await keyUsage(poor.key)).toBe(0);
  });

  it('max_tokens bounds the hold, so a small ceiling fits a balance the full window does not', async () => {
    const modest = await account('0.01');
    expect((await chat(modest.key, {})).status).toBe(402);
    const reply = await chat(modest.key, { max_tokens: 10 });
    expect(reply.status).toBe(200);
    expect(await keyUsage(modest.key)).toBeGreaterThan(0);
  });
});

describe('a refused request is never charged', () => {
  it('400, 401, 402, 404 and 503 refusals leave usage at 0 and the balance untouched', async () => {
    const refused = await account('0.01');
    const revoked = await createKey(harness.gateway.store, { accountId: refused.accountId });
    await revokeKey(harness.gateway.store, { id: revoked.id });
    const before = await accountMoney(harness, refused.accountId);
    const statuses = [
      (await chat(refused.key, { temperature: 3, max_tokens: 10 })).status,
      (await chat(revoked.key, { max_tokens: 10 })).status,
      (await chat(refused.key, {})).status,
      (await chat(refused.key, { model: 'acme/no-such-model', max_tokens: 10 })).status,
      (await chat(refused.key, { frequency_penalty: 1, max_tokens: 10 })).status,
    ];
    expect(statuses).toEqual([400, 401, 402, 404, 503]);
    expect(await keyUsage(refused.key)).toBe(0);
    expect(await accountMoney(harness, refused.accountId)).toEqual({ balance: before.balance, reserved: 0n });
  });

  it('a served request is charged exactly its reported cost', async () => {
    const paying = await account('0.01');
    const before = await accountMoney(harness, paying.accountId);
    const reply = await chat(paying.key, { max_tokens: 10 });
    expect(reply.status).toBe(200);
    const generationId = reply.headers.get('x-generation-id') ?? '';
    const record = await send(harness, { path: `/generation?id=${generationId}`, key: paying.key });
    const cost = parseUsd((record.json as { data: { cost_usd: string } }).data.cost_usd);
    expect(cost).toBeGreaterThan(0n);
    expect(await accountMoney(harness, paying.accountId)).toEqual({ balance: before.balance - cost, reserved: 0n });
  });
});
