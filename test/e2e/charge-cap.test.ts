import { readScopeUsage } from '../../src/accounts/scope-usage.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey, type CreatedAccount } from '../../src/accounts/accounts.js';
import { formatUsd, minUnits, parseUsd, toUsdNumber, type Units } from '../../src/billing/money.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE } from '../support/store-engines.js';
import { accountMoney, readSse, send, startHarness, type Harness, type ModelSpec, type RawReply } from './harness.js';
import { tapLedger, type LedgerTap } from './ledger-tap.js';

/**
 * Billing is prepaid and the hold is the most a request may cost: whatever an endpoint reports past
 * the ceiling it was asked for, or past the hold, is recorded as uncollected and never charged.
 */

const PROMPT = parseUsd('0.000001');
const COMPLETION = parseUsd('0.000002');
const DECLARES_LOGPROBS = ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'];

const MODELS: ModelSpec[] = [
  // 2,000 reasoning tokens whatever max_tokens says: 2,010 completion tokens for max_tokens 10.
  { id: 'acme/overrun', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;reasoning=2000' }] },
  { id: 'acme/miscount', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;prompt_tokens=5000' }] },
  { id: 'acme/judge', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;labels;reasoning=50', supported_parameters: DECLARES_LOGPROBS }] },
];

interface Usage {
  prompt_tokens: number;
  completion_tokens: number;
  cost: number;
}

interface GenerationData {
  tokens_prompt: number | null;
  tokens_completion: number | null;
  cost_usd: string;
  uncollected_usd: string | null;
  uncollected_reason: string | null;
}

async function generation(harness: Harness, id: string, key: string): Promise<GenerationData> {
  const reply = await send(harness, { path: `/generation?id=${id}`, key });
  expect(reply.status, reply.text).toBe(200);
  return (reply.json as { data: GenerationData }).data;
}

function generationId(reply: RawReply): string {
  return reply.headers.get('x-generation-id') ?? '';
}

/** The exact charge and what goes uncollected, from the reported counts, the billable output and the hold. */
function expectedSettlement(counts: { prompt: number; completion: number; billableCompletion: number }, hold: Units) {
  const reported = PROMPT * BigInt(counts.prompt) + COMPLETION * BigInt(counts.completion);
  const withinCeiling = PROMPT * BigInt(counts.prompt) + COMPLETION * BigInt(counts.billableCompletion);
  const charge = minUnits(withinCeiling, hold);
  const reasons = [
    ...(withinCeiling < reported ? ['completion_over_ceiling'] : []),
    ...(charge < withinCeiling ? ['over_hold'] : []),
  ];
  return { charge, uncollected: reported - charge, reason: reasons.join(',') };
}

describe('an endpoint reporting more than the hold covers', () => {
  let harness: Harness;
  let tap: LedgerTap;

  beforeAll(async () => {
    harness = await startHarness({ models: MODELS });
    tap = tapLedger(harness);
  });

  afterAll(async () => harness.close());

  function poorAccount(): Promise<CreatedAccount> {
    return createAccount(harness.gateway.store, { name: 'poor', creditsUsd: '0.0005' });
  }

  function heldAmount(id: string): Units {
    const [call] = tap.of(id);
    if (!call) throw new Error(`no settlement of ${id}`);
    return call.hold.amount;
  }

  /** Checks the charge, the record and the balance of one answered request whose reply carried `usage`. */
  async function expectCapped(account: CreatedAccount, id: string, usage: Usage, billableCompletion: number): Promise<void> {
    const hold = heldAmount(id);
    const expected = expectedSettlement({ prompt: usage.prompt_tokens, completion: usage.completion_tokens, billableCompletion }, hold);
    expect(expected.charge).toBeLessThanOrEqual(hold);
    expect(usage.cost).toBe(toUsdNumber(expected.charge));
    const record = await generation(harness, id, account.key);
    expect(record).toMatchObject({
      tokens_prompt: usage.prompt_tokens,
      tokens_completion: usage.completion_tokens,
      cost_usd: formatUsd(expected.charge),
      uncollected_usd: formatUsd(expected.uncollected),
      uncollected_reason: expected.reason,
    });
    expect(record.uncollected_reason).toContain(billableCompletion < usage.completion_tokens ? 'completion_over_ceiling' : 'over_hold');
    const money = await accountMoney(harness, account.accountId);
    expect(money).toEqual({ balance: parseUsd('0.0005') - expected.charge, reserved: 0n });
    expect(money.balance).toBeGreaterThanOrEqual(0n);
  }

  it('a chat with max_tokens 10 answered with 2,010 completion tokens is charged 10 at most, never below a zero balance', async () => {
    const account = await poorAccount();
    const reply = await send(harness, {
      path: '/chat/completions',
      key: account.key,
      body: { model: 'acme/overrun', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status, reply.text).toBe(200);
    const { usage } = reply.json as { usage: Usage };
    expect(usage.completion_tokens).toBe(2010);
    await expectCapped(account, generationId(reply), usage, 10);
    const endpoint = harness.gateway.services.overruns.read().find((entry) => entry.endpointId === 'sim-a/acme/overrun');
    expect(endpoint?.count).toBeGreaterThanOrEqual(1);
  });

  it('the same answer streamed: the usage chunk carries the capped cost', async () => {
    const account = await poorAccount();
    const reply = await send(harness, {
      path: '/chat/completions',
      key: account.key,
      body: { model: 'acme/overrun', max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status).toBe(200);
    const frames = readSse(reply.text).data.filter((data) => data !== '[DONE]').map((data) => JSON.parse(data) as { usage?: Usage });
    const usage = frames.at(-1)?.usage;
    if (!usage) throw new Error(`no usage chunk in ${reply.text.slice(-400)}`);
    expect(usage.completion_tokens).toBe(2010);
    await expectCapped(account, generationId(reply), usage, 10);
  });

  it('a text completion with max_tokens 10 is capped the same way', async () => {
    const account = await poorAccount();
    const reply = await send(harness, { path: '/completions', key: account.key, body: { model: 'acme/overrun', max_tokens: 10, prompt: 'Hi' } });
    expect(reply.status, reply.text).toBe(200);
    const { usage } = reply.json as { usage: Usage };
    expect(usage.completion_tokens).toBe(2010);
    await expectCapped(account, generationId(reply), usage, 10);
  });

  it('a prompt counted far above the estimate is charged the hold, the rest recorded as over_hold', async () => {
    const account = await poorAccount();
    const reply = await send(harness, {
      path: '/chat/completions',
      key: account.key,
      body: { model: 'acme/miscount', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
    });
    expect(reply.status, reply.text).toBe(200);
    const { usage } = reply.json as { usage: Usage };
    expect(usage.prompt_tokens).toBe(5000);
    expect(usage.cost).toBe(toUsdNumber(heldAmount(generationId(reply))));
    await expectCapped(account, generationId(reply), usage, usage.completion_tokens);
  });

  it('a typed decision bills each call up to its own ceiling of 4 tokens, past them nothing', async () => {
    const account = await poorAccount();
    const question = (subject: string) => ({ type: 'choice', instructions: `Is ${subject} urgent?`, criteria: { yes: 'today', no: 'later' } });
    const reply = await send(harness, {
      path: '/systemone',
      key: account.key,
      body: { model: 'acme/judge', state: 'Customer: refund me.', questions: { refund: question('the refund'), tone: question('the tone') } },
    });
    expect(reply.status, reply.text).toBe(200);
    const body = reply.json as { usage: { input_tokens: number; output_tokens: number; cost: number } };
    expect(body.usage.output_tokens).toBe(2 * 51);
    const usage = { prompt_tokens: body.usage.input_tokens, completion_tokens: body.usage.output_tokens, cost: body.usage.cost };
    await expectCapped(account, generationId(reply), usage, 2 * 4);
  });
});

interface Engine {
  name: string;
  database(): Promise<{ url: string; drop(): Promise<void> }>;
}

const ENGINES: Engine[] = [
  { name: 'sqlite', database: async () => ({ url: 'sqlite::memory:', drop: async () => undefined }) },
  ...(POSTGRES_REACHABLE ? [{ name: 'postgres', database: freshPostgresDatabase }] : []),
];

describe.each(ENGINES)('64 concurrent overrunning requests on $name', (engine) => {
  let harness: Harness;
  let dropDatabase: () => Promise<void>;

  beforeAll(async () => {
    const database = await engine.database();
    dropDatabase = database.drop;
    harness = await startHarness({ models: MODELS, databaseUrl: database.url });
  });

  afterAll(async () => {
    await harness.close();
    await dropDatabase();
  });

  it('leave the balance at or above zero and the limited key within its limit, every charge within its hold', async () => {
    const { store } = harness.gateway;
    const account = await createAccount(store, { name: 'crowd', creditsUsd: '0.0005' });
    const limited = await createKey(store, { accountId: account.accountId, limitUsd: '0.0001' });
    const replies = await Promise.all(Array.from({ length: 64 }, (_, index) => send(harness, {
      path: '/chat/completions',
      key: index % 2 === 0 ? account.key : limited.key,
      body: { model: 'acme/overrun', max_tokens: 10, messages: [{ role: 'user', content: 'Hi' }] },
    })));
    const statuses = new Set(replies.map((reply) => reply.status));
    expect([...statuses].sort()).toEqual([200, 402]);

    const money = await accountMoney(harness, account.accountId);
    expect(money.reserved).toBe(0n);
    expect(money.balance).toBeGreaterThanOrEqual(0n);
    const usage = await readScopeUsage(store.db, { scope: 'key', id: limited.id }, new Date());
    expect(usage.total).toBeLessThanOrEqual(parseUsd('0.0001'));

    let charged = 0n;
    for (const [index, reply] of replies.entries()) {
      if (reply.status !== 200) continue;
      const record = await generation(harness, generationId(reply), index % 2 === 0 ? account.key : limited.key);
      expect(record.tokens_completion).toBe(2010);
      expect(record.uncollected_reason).toContain('completion_over_ceiling');
      charged += parseUsd(record.cost_usd);
    }
    expect(money.balance).toBe(parseUsd('0.0005') - charged);
  });
});
