import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_HOLD_TTL_MS } from '../../src/billing/ledger.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness, type ModelSpec } from './harness.js';
import { expectRestartRefusal, holdRequest } from './held-request.js';
import { tapLedger, type LedgerTap } from './ledger-tap.js';

/** Typed decisions under faults of the service itself: a restart, a ledger that cannot record, a caller who leaves. */

const DECLARES_LOGPROBS = ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'];

function judge(id: string, upstream: string): ModelSpec {
  return { id, endpoints: [{ provider: 'sim-a', upstream_model: upstream, supported_parameters: DECLARES_LOGPROBS }] };
}

const MODELS = [
  judge('acme/judge', 'chat;labels'),
  // answers prose naming none of the options: refused (502), charging nothing
  judge('acme/mute', 'chat'),
  // the answer comes after 30 s: always in flight when the test acts
  judge('acme/slow', 'chat;labels;ttft=30000'),
];

function decision(model: string): Record<string, unknown> {
  return {
    model,
    state: 'Customer: I was charged twice, refund me today.',
    questions: { urgency: { type: 'choice', instructions: 'How urgent is this?', criteria: { low: 'can wait a week', high: 'needs action today' } } },
  };
}

async function untilUpstreamSaw(harness: Harness, count: number): Promise<void> {
  for (let poll = 0; poll < 800 && harness.sim.requests().length < count; poll += 1) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a restart while a typed decision is in flight', () => {
  it('past the drain grace it answers 503 server with Retry-After: 5, recorded, charging nothing; a request arriving during the drain is 503 provider_overloaded', async () => {
    const draining = await startHarness({ models: MODELS, settings: { drainGraceMs: 50 } });
    const tap = tapLedger(draining);
    let closing: Promise<void> | undefined;
    try {
      const inFlight = send(draining, { path: '/systemone', body: decision('acme/slow') });
      const late = await holdRequest(draining, '/systemone', decision('acme/judge'));
      await untilUpstreamSaw(draining, 1);
      closing = draining.gateway.close();
      const cut = await inFlight;
      const refused = await late.finish();
      await closing;

      expect(cut.status).toBe(503);
      expect(cut.headers.get('retry-after')).toBe('5');
      expect(cut.headers.get('x-should-retry')).toBe('true');
      const { error } = cut.json as ErrorEnvelope;
      expect(error.metadata.error_type).toBe('server');
      expect(error.message).toMatch(/retry in 5 seconds/);
      const [closed, ...more] = tap.of(cut.headers.get('x-generation-id'));
      expect(more).toEqual([]);
      expect(closed?.failed).toBe(false);
      expect(closed?.record).toMatchObject({ status: 'error', errorCode: 503, errorMessage: error.message, cost: 0n });

      expectRestartRefusal(refused);
      expect(draining.sim.requests()).toHaveLength(1);
    } finally {
      await (closing ?? draining.gateway.close()).catch(() => undefined);
      await draining.sim.close();
    }
  });
});

let harness: Harness;
let tap: LedgerTap;

beforeAll(async () => {
  harness = await startHarness({ models: MODELS });
  tap = tapLedger(harness);
});

afterAll(async () => harness.close());

async function generationStatus(id: string | null): Promise<number> {
  return (await send(harness, { path: `/generation?id=${id ?? ''}` })).status;
}

describe('a ledger that cannot record a typed decision', () => {
  it('answers 503 server "could not be recorded"; the hold stays reserved, uncharged, until the reconciler releases it; no generation is recorded', async () => {
    const before = await accountMoney(harness);
    tap.down = true;
    const reply = await send(harness, { path: '/systemone', body: decision('acme/judge') });
    tap.down = false;
    expect(reply.status).toBe(503);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.metadata.error_type).toBe('server');
    expect(error.message).toBe('The answer could not be recorded; repeat the request');
    const id = reply.headers.get('x-generation-id');
    expect(tap.of(id).map((call) => [call.method, call.failed])).toEqual([['settle', true]]);

    const held = await accountMoney(harness);
    expect(held.balance).toBe(before.balance);
    expect(held.reserved).toBeGreaterThan(before.reserved);
    expect(await harness.gateway.services.ledger.releaseExpired(new Date(Date.now() + DEFAULT_HOLD_TTL_MS + 60_000))).toBe(1);
    expect(await accountMoney(harness)).toEqual(before);
    // a hold kept in the process writes no pending generation: it is recorded by its settlement only
    const record = await send(harness, { path: `/generation?id=${id ?? ''}` });
    expect(record.status).toBe(404);
  });

  it('a refused decision whose release cannot be recorded answers the same 503, not the refusal', async () => {
    const before = await accountMoney(harness);
    tap.down = true;
    const reply = await send(harness, { path: '/systemone', body: decision('acme/mute') });
    tap.down = false;
    expect(reply.status).toBe(503);
    expect((reply.json as ErrorEnvelope).error.message).toBe('The answer could not be recorded; repeat the request');
    expect(tap.of(reply.headers.get('x-generation-id')).map((call) => [call.method, call.failed])).toEqual([['release', true]]);
    await harness.gateway.services.ledger.releaseExpired(new Date(Date.now() + DEFAULT_HOLD_TTL_MS + 60_000));
    expect(await accountMoney(harness)).toEqual(before);
  });

  it('with the ledger back, a decision is answered and charged once', async () => {
    const before = await accountMoney(harness);
    const reply = await send(harness, { path: '/systemone', body: decision('acme/judge') });
    expect(reply.status).toBe(200);
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBeGreaterThan(0n);
    expect(after.reserved).toBe(before.reserved);
    expect(tap.of(reply.headers.get('x-generation-id')).map((call) => [call.method, call.failed])).toEqual([['settle', false]]);
    expect(await generationStatus(reply.headers.get('x-generation-id'))).toBe(200);
  });
});

describe('a caller who leaves before a typed decision is answered', () => {
  it('is recorded cancelled with 408, charging nothing and releasing the hold', async () => {
    harness.sim.clearRequests();
    const before = await accountMoney(harness);
    const calls = tap.calls.length;
    const outgoing = httpRequest(`${harness.baseUrl}/systemone`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
    });
    outgoing.on('error', () => undefined);
    outgoing.end(JSON.stringify(decision('acme/slow')));
    await untilUpstreamSaw(harness, 1);
    outgoing.destroy();
    await tap.untilCalls(calls + 1);

    const [closed] = tap.calls.slice(calls);
    expect(closed?.record).toMatchObject({ status: 'cancelled', errorCode: 408, errorMessage: 'Request aborted client-side before it finished', cost: 0n });
    const record = await send(harness, { path: `/generation?id=${closed?.hold.generationId ?? ''}` });
    expect((record.json as { data: { status: string; cost_usd: string } }).data).toMatchObject({ status: 'cancelled', cost_usd: '0' });
    expect(await accountMoney(harness)).toEqual(before);
  });
});
