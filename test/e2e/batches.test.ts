import { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, createKey } from '../../src/accounts/accounts.js';
import { parseUsd } from '../../src/billing/money.js';
import { ledgerSnapshot } from '../reliability/ledger-snapshot.js';
import {
  acceptedBatch, batchEnded, batchUntil, chatBody, costOfLines, endedWithLines, exchange, generation, namedGenerations, readBatch, requestsOf, submitBatch,
  type BatchCaller, type BatchReply, type BatchView, type ResultLineView,
} from './batch-client.js';
import { accountMoney, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const CHAT = { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3' }] };
const OTHER = { id: 'acme/other', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=2' }] };
const CHAT_ENDPOINT = '/v1/chat/completions';
const MiB = 1024 * 1024;
/** A request the simulator holds for a while before answering: the runner is busy with it. */
const SLOW = '[[sim ttft=15000]]';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ models: [CHAT, OTHER] });
});

afterAll(async () => harness.close());

/** A fresh account of its own (its batches, balance and key rate alone), reached through its key. */
async function freshAccount(credits = '5'): Promise<BatchCaller & { accountId: string }> {
  const account = await createAccount(harness.gateway.store, { name: `batches ${credits}`, creditsUsd: credits });
  return { baseUrl: harness.baseUrl, key: account.key, accountId: account.accountId };
}

function envelope(reply: BatchReply): ErrorEnvelope['error'] {
  expect((reply.json as Partial<ErrorEnvelope> | undefined)?.error, reply.text).toBeDefined();
  return (reply.json as ErrorEnvelope).error;
}

/** A batch line's error as the live route's error envelope would put it. */
function asLineError(error: ErrorEnvelope['error']): Omit<NonNullable<ResultLineView['error']>, 'request_id'> {
  const field = error.metadata.field;
  return { type: error.metadata.error_type, message: error.message, param: typeof field === 'string' ? field : null, code: error.code };
}

/**
 * Each generation the lines name was charged exactly its recorded cost, once; nothing else of the
 * account was charged; the balance dropped by their sum, and no hold is left open.
 */
async function expectChargedOnce(caller: BatchCaller & { accountId: string }, lines: readonly ResultLineView[], balanceBefore: bigint): Promise<void> {
  const money = await accountMoney(harness, caller.accountId);
  expect(money.reserved).toBe(0n);
  expect(balanceBefore - money.balance).toBe(await costOfLines(caller, lines));
  const ledger = await ledgerSnapshot(harness.gateway.store, caller.accountId);
  const named = namedGenerations(lines);
  for (const id of named) {
    const cost = parseUsd((await generation(caller, id)).cost_usd);
    expect(ledger.charges.get(id) ?? [], `charges of ${id}`).toEqual(cost === 0n ? expect.toSatisfy((amounts: bigint[]) => amounts.every((amount) => amount === 0n)) : [cost]);
  }
  const charged = [...ledger.charges].filter(([, amounts]) => amounts.some((amount) => amount !== 0n)).map(([id]) => id);
  expect(charged.filter((id) => !named.includes(id))).toEqual([]);
  expect(ledger.holds).toEqual([]);
}

describe('a chat batch runs to completed', () => {
  it('202 validating, then completed with counts; one line per request in submission order, each billed once under its own generation', async () => {
    const caller = await freshAccount();
    const before = await accountMoney(harness, caller.accountId);
    const ids = ['first', 'second', 'third', 'fourth', 'fifth'];
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: requestsOf(ids.map((id) => [id, chatBody(`Answer ${id}`)])) });
    expect(accepted).toMatchObject({
      object: 'batch', endpoint: CHAT_ENDPOINT, completion_window: '24h', status: 'validating', finalized_at: null,
      request_counts: { total: 5, completed: 0, failed: 0 }, results_file_id: null, results: null, error: null,
    });
    expect(accepted.id).toMatch(/^batch_[0-9a-f]{32}$/);
    expect(accepted.expires_at - accepted.created_at).toBe(24 * 3600);

    const { batch, lines } = await endedWithLines(caller, accepted.id);
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 5, completed: 5, failed: 0 }, error: null });
    expect(batch.finalized_at).toEqual(expect.any(Number));
    expect(lines.map((line) => line.custom_id)).toEqual(ids);
    expect(new Set(lines.map((line) => line.id)).size).toBe(5);
    for (const line of lines) {
      expect(line.id).toMatch(/^breq_/);
      expect(line.error).toBeNull();
      expect(line.response).toMatchObject({ status_code: 200, request_id: expect.stringMatching(/^gen-/), body: { object: 'chat.completion', model: 'acme/chat' } });
      expect(await generation(caller, line.response?.request_id ?? '')).toMatchObject({ status: 'success', model: 'acme/chat' });
    }
    expect(new Set(lines.map((line) => line.response?.request_id)).size).toBe(5);
    await expectChargedOnce(caller, lines, before.balance);
    expect(before.balance - (await accountMoney(harness, caller.accountId)).balance).toBeGreaterThan(0n);

    const listed = await exchange(caller, { path: '/batches' });
    expect(listed.status).toBe(200);
    expect((listed.json as { data: BatchView[] }).data).toEqual([{ ...batch, results: null }]);
  });
});

describe('the envelope is checked as a whole', () => {
  const ok = (customId: string) => ({ custom_id: customId, body: chatBody('Hi') });
  const refusals: Array<[string, Record<string, unknown>, string, RegExp]> = [
    ['a repeated custom_id', { endpoint: CHAT_ENDPOINT, requests: [ok('a'), ok('a')] }, 'requests[1].custom_id', /^requests\[1\]\.custom_id: repeated/],
    ['an unbatched endpoint', { endpoint: '/v1/embeddings', requests: [ok('a')] }, 'endpoint', /^endpoint: /],
    ['image generation (the three endpoints only)', { endpoint: '/v1/images/generations', requests: [ok('a')] }, 'endpoint', /^endpoint: /],
    ['the marketplace\'s image route', { endpoint: '/v1/images', requests: [ok('a')] }, 'endpoint', /^endpoint: /],
    ['transcription', { endpoint: '/v1/audio/transcriptions', requests: [ok('a')] }, 'endpoint', /^endpoint: /],
    ['a missing endpoint', { requests: [ok('a')] }, 'endpoint', /^endpoint: /],
    ['missing requests', { endpoint: CHAT_ENDPOINT }, 'requests', /^requests: /],
    ['no request at all', { endpoint: CHAT_ENDPOINT, requests: [] }, 'requests', /^requests: /],
    ['1,001 requests', { endpoint: CHAT_ENDPOINT, requests: Array.from({ length: 1001 }, (_, index) => ok(`r${index}`)) }, 'requests', /^requests: /],
    ['a custom_id of 129 characters', { endpoint: CHAT_ENDPOINT, requests: [ok('c'.repeat(129))] }, 'requests[0].custom_id', /^requests\[0\]\.custom_id: /],
    ['a custom_id with a control character', { endpoint: CHAT_ENDPOINT, requests: [ok('line\nbreak')] }, 'requests[0].custom_id', /^requests\[0\]\.custom_id: /],
    ['a body asking to stream', { endpoint: CHAT_ENDPOINT, requests: [ok('a'), { custom_id: 'b', body: chatBody('Hi', { stream: true }) }] }, 'requests[1].body.stream', /^requests\[1\]\.body\.stream: /],
    ['a chat body asking store: true', { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'a', body: chatBody('Hi', { store: true }) }] }, 'requests[0].body.store', /^requests\[0\]\.body\.store: /],
    ['a completion window other than 24h', { endpoint: CHAT_ENDPOINT, completion_window: '48h', requests: [ok('a')] }, 'completion_window', /^completion_window: /],
  ];

  it.each(refusals)('%s is the 400 naming the field, and nothing is stored', async (_, body, field, message) => {
    const caller = await freshAccount();
    const reply = await submitBatch(caller, body);
    expect(reply.status, reply.text).toBe(400);
    expect(envelope(reply)).toMatchObject({ code: 400, message: expect.stringMatching(message), metadata: { error_type: 'invalid_request', field } });
    expect(((await exchange(caller, { path: '/batches' })).json as { data: unknown[] }).data).toEqual([]);
  });

  it('an envelope that is not JSON is the 400 invalid_request', async () => {
    const reply = await exchange(await freshAccount(), { path: '/batches', rawBody: '{"endpoint": ' });
    expect(reply.status).toBe(400);
    expect(envelope(reply).metadata.error_type).toBe('invalid_request');
  });

  it('a custom_id of exactly 128 characters is accepted', async () => {
    const caller = await freshAccount();
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'c'.repeat(128), body: chatBody('Hi') }] });
    const { lines } = await endedWithLines(caller, accepted.id);
    expect(lines.map((line) => line.custom_id)).toEqual(['c'.repeat(128)]);
  });

  it('a submission past 32 MiB is the 413 payload_too_large, and nothing is stored', async () => {
    const caller = await freshAccount();
    const head = `{"endpoint":"${CHAT_ENDPOINT}","requests":[{"custom_id":"big","body":{"model":"acme/chat","messages":[{"role":"user","content":"`;
    const tail = '"}]}}]}';
    const rawBody = `${head}${'x'.repeat(32 * MiB + 1 - head.length - tail.length)}${tail}`;
    expect(Buffer.byteLength(rawBody)).toBe(32 * MiB + 1);
    const reply = await exchange(caller, { path: '/batches', rawBody });
    expect(reply.status).toBe(413);
    expect(envelope(reply)).toMatchObject({ code: 413, metadata: { error_type: 'payload_too_large' } });
    expect(((await exchange(caller, { path: '/batches' })).json as { data: unknown[] }).data).toEqual([]);
  });

  it('a submission past the 8 MB body limit is accepted, and when every body fails validation the batch ends failed with error.message, nothing charged', async () => {
    const caller = await freshAccount();
    const before = await accountMoney(harness, caller.accountId);
    const invalid = chatBody(`${caller.accountId} ${'x'.repeat(30_000)}`, { temperature: 3 });
    const requests = Array.from({ length: 300 }, (_, index) => ({ custom_id: `bad-${index}`, body: invalid }));
    expect(Buffer.byteLength(JSON.stringify(requests))).toBeGreaterThan(8 * MiB);
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests });
    expect(accepted.request_counts).toEqual({ total: 300, completed: 0, failed: 300 });

    const live = await exchange(caller, { path: '/chat/completions', body: invalid });
    expect(live.status).toBe(400);
    const { batch, lines } = await endedWithLines(caller, accepted.id);
    expect(batch.status).toBe('failed');
    expect(batch.error?.message).toEqual(expect.any(String));
    expect(batch.error?.message).not.toBe('');
    expect(batch.request_counts).toEqual({ total: 300, completed: 0, failed: 300 });
    expect(lines.map((line) => line.custom_id)).toEqual(requests.map((request) => request.custom_id));
    for (const line of lines) {
      expect(line.response).toBeNull();
      expect(line.error).toMatchObject(asLineError(envelope(live)));
    }
    expect(harness.sim.requests().filter((request) => JSON.stringify(request.body).includes(caller.accountId))).toEqual([]);
    expect(await accountMoney(harness, caller.accountId)).toEqual({ balance: before.balance, reserved: 0n });
  });
});

describe('bodies that fail alone', () => {
  it('a body failing the chat schema fails alone with the live route\'s error and counts in failed, while the rest runs', async () => {
    const caller = await freshAccount();
    const before = await accountMoney(harness, caller.accountId);
    const bad = [chatBody('Hi', { temperature: 3 }), { model: 'acme/chat', messages: 'not a list' }];
    const accepted = await acceptedBatch(caller, {
      endpoint: CHAT_ENDPOINT,
      requests: requestsOf([['ok-1', chatBody('One')], ['hot', bad[0] ?? {}], ['ok-2', chatBody('Two')], ['shapeless', bad[1] ?? {}]]),
    });
    expect(accepted.request_counts).toMatchObject({ total: 4 });
    const { batch, lines } = await endedWithLines(caller, accepted.id);
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 4, completed: 2, failed: 2 }, error: null });
    expect(lines.map((line) => line.custom_id)).toEqual(['ok-1', 'hot', 'ok-2', 'shapeless']);
    for (const [index, body] of [[1, bad[0]], [3, bad[1]]] as const) {
      const live = await exchange(caller, { path: '/chat/completions', body });
      expect(live.status).toBe(400);
      expect(lines[index]?.response).toBeNull();
      expect(lines[index]?.error).toMatchObject(asLineError(envelope(live)));
    }
    expect(lines[0]?.response?.status_code).toBe(200);
    expect(lines[2]?.response?.status_code).toBe(200);
    await expectChargedOnce(caller, lines, before.balance);
  });

  it('a body naming another model than the batch\'s fails alone; the others run under the batch\'s model', async () => {
    const caller = await freshAccount();
    const accepted = await acceptedBatch(caller, {
      endpoint: CHAT_ENDPOINT,
      model: 'acme/chat',
      requests: [
        { custom_id: 'default', body: { messages: [{ role: 'user', content: 'Hi' }] } },
        { custom_id: 'elsewhere', body: { model: 'acme/other', messages: [{ role: 'user', content: 'Hi' }] } },
        { custom_id: 'same', body: chatBody('Hi') },
      ],
    });
    expect(accepted.model).toBe('acme/chat');
    const { batch, lines } = await endedWithLines(caller, accepted.id);
    expect(batch.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    expect(lines[1]).toMatchObject({ custom_id: 'elsewhere', response: null, error: { type: 'invalid_request', code: 400, param: 'model' } });
    for (const line of [lines[0], lines[2]]) {
      expect(line?.response?.body).toMatchObject({ model: 'acme/chat' });
      expect(await generation(caller, line?.response?.request_id ?? '')).toMatchObject({ model: 'acme/chat' });
    }
  });

  it('a request the account cannot fund fails alone with the 402, uncharged; the rest complete', async () => {
    // 0.01 USD holds a reply bounded by max_tokens, not one that may fill the whole context
    const caller = await freshAccount('0.01');
    const before = await accountMoney(harness, caller.accountId);
    const unbounded = chatBody('Hi');
    const accepted = await acceptedBatch(caller, {
      endpoint: CHAT_ENDPOINT,
      requests: requestsOf([['bounded-1', chatBody('Hi', { max_tokens: 10 })], ['unbounded', unbounded], ['bounded-2', chatBody('Hi', { max_tokens: 10 })]]),
    });
    const { batch, lines } = await endedWithLines(caller, accepted.id);
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 2, failed: 1 } });
    const live = envelope(await exchange(caller, { path: '/chat/completions', body: unbounded }));
    expect(live.code).toBe(402);
    // the message names what was spendable when it was sent, which the batch's other requests changed
    expect(live.metadata.error_type).toBe('payment_required');
    expect(lines[1]).toMatchObject({ custom_id: 'unbounded', response: null, error: { type: 'payment_required', code: 402 } });
    expect(lines[1]?.error?.message).toMatch(/^Insufficient credits/);
    if (lines[1]?.error?.request_id) expect((await generation(caller, lines[1].error.request_id)).cost_usd).toBe('0');
    expect(lines[0]?.response?.status_code).toBe(200);
    expect(lines[2]?.response?.status_code).toBe(200);
    await expectChargedOnce(caller, lines, before.balance);
  });

  it('a request whose model no endpoint serves fails alone with the 404, uncharged; the rest complete', async () => {
    const caller = await freshAccount();
    const before = await accountMoney(harness, caller.accountId);
    const nowhere = chatBody('Hi', { model: 'acme/nowhere' });
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: requestsOf([['here', chatBody('Hi')], ['nowhere', nowhere], ['here-too', chatBody('Hi')]]) });
    const { batch, lines } = await endedWithLines(caller, accepted.id);
    expect(batch.request_counts).toEqual({ total: 3, completed: 2, failed: 1 });
    const live = envelope(await exchange(caller, { path: '/chat/completions', body: nowhere }));
    expect(lines[1]).toMatchObject({ custom_id: 'nowhere', response: null, error: { ...asLineError(live), type: 'not_found', code: 404 } });
    if (lines[1]?.error?.request_id) expect((await generation(caller, lines[1].error.request_id)).cost_usd).toBe('0');
    await expectChargedOnce(caller, lines, before.balance);
  });
});

describe('GET /batches', () => {
  let caller: BatchCaller;
  let completed: BatchView[];
  let running: BatchView;

  beforeAll(async () => {
    caller = await freshAccount();
    completed = [];
    for (const text of ['A', 'B']) {
      const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: text, body: chatBody(text) }] });
      completed.push(await batchEnded(caller, accepted.id));
    }
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'slow', body: chatBody(`Slow ${SLOW}`) }] });
    running = await batchUntil(caller, accepted.id, (batch) => batch.status === 'in_progress');
  });

  afterAll(async () => {
    await exchange(caller, { path: `/batches/${running.id}/cancel`, method: 'POST' });
    await batchEnded(caller, running.id);
  });

  async function listed(query: string): Promise<{ ids: string[]; page: { data: BatchView[]; has_more: boolean; first_id: string | null; last_id: string | null } }> {
    const reply = await exchange(caller, { path: `/batches${query}` });
    expect(reply.status, reply.text).toBe(200);
    const page = reply.json as { data: BatchView[]; has_more: boolean; first_id: string | null; last_id: string | null };
    return { ids: page.data.map((batch) => batch.id), page };
  }

  it('lists the account\'s batches newest first, each with results null', async () => {
    const { ids, page } = await listed('');
    expect(ids).toEqual([running.id, completed[1]?.id, completed[0]?.id]);
    expect(page.data.every((batch) => batch.results === null)).toBe(true);
    expect(page.data.map((batch) => batch.status)).toEqual(['in_progress', 'completed', 'completed']);
    expect(page.has_more).toBe(false);
  });

  it('status is repeatable, and an unknown status is the 400 naming status', async () => {
    expect((await listed('?status=completed')).ids).toEqual([completed[1]?.id, completed[0]?.id]);
    expect((await listed('?status=in_progress')).ids).toEqual([running.id]);
    expect((await listed('?status=completed&status=in_progress')).ids).toEqual([running.id, completed[1]?.id, completed[0]?.id]);
    expect((await listed('?status=cancelled')).ids).toEqual([]);
    const refused = await exchange(caller, { path: '/batches?status=done' });
    expect(refused.status).toBe(400);
    expect(envelope(refused).metadata).toMatchObject({ error_type: 'invalid_request', field: 'status' });
  });

  /** The listed ids for each form of `bound` (unix seconds, an ISO instant with and without milliseconds) as `name`. */
  async function listedAround(name: 'created_after' | 'created_before', bound: number): Promise<Record<string, string[]>> {
    const iso = new Date(bound * 1000).toISOString();
    const seen: Record<string, string[]> = {};
    for (const value of [String(bound), iso, iso.replace('.000Z', 'Z')]) seen[value] = (await listed(`?${name}=${encodeURIComponent(value)}`)).ids;
    return seen;
  }

  function expectedAround(bound: number, keep: (createdAt: number) => boolean): Record<string, string[]> {
    const iso = new Date(bound * 1000).toISOString();
    const ids = [running, completed[1], completed[0]].filter((batch) => batch !== undefined && keep(batch.created_at)).map((batch) => batch?.id ?? '');
    return { [String(bound)]: ids, [iso]: ids, [iso.replace('.000Z', 'Z')]: ids };
  }

  it('created_after and created_before take unix seconds, a date or an ISO instant; anything else is the 400 naming it', async () => {
    const all = [running, completed[1], completed[0]].filter((batch): batch is BatchView => batch !== undefined);
    const seconds = all.map((batch) => batch.created_at);
    const [before, after] = [Math.min(...seconds) - 1, Math.max(...seconds) + 1];
    expect(await listedAround('created_after', before)).toEqual(expectedAround(before, () => true));
    expect(await listedAround('created_after', after)).toEqual(expectedAround(after, () => false));
    expect(await listedAround('created_before', before)).toEqual(expectedAround(before, () => false));
    expect(await listedAround('created_before', after)).toEqual(expectedAround(after, () => true));
    const firstDay = new Date(Math.min(...seconds) * 1000).toISOString().slice(0, 10);
    const dayAfterLast = new Date(Math.max(...seconds) * 1000 + 86_400_000).toISOString().slice(0, 10);
    expect((await listed(`?created_after=${firstDay}`)).ids).toEqual(all.map((batch) => batch.id));
    expect((await listed(`?created_before=${firstDay}`)).ids).toEqual([]);
    expect((await listed(`?created_after=${dayAfterLast}`)).ids).toEqual([]);
    expect((await listed(`?created_before=${dayAfterLast}&created_after=${firstDay}`)).ids).toEqual(all.map((batch) => batch.id));
    for (const name of ['created_after', 'created_before']) {
      const refused = await exchange(caller, { path: `/batches?${name}=yesterday` });
      expect(refused.status).toBe(400);
      expect(envelope(refused).metadata).toMatchObject({ error_type: 'invalid_request', field: name });
    }
  });

  it('both bounds are exclusive: a batch created in the bound\'s own second is not listed', async () => {
    for (const bound of new Set([running, completed[1], completed[0]].map((batch) => batch?.created_at ?? 0))) {
      expect(await listedAround('created_after', bound), `created_after=${bound}`).toEqual(expectedAround(bound, (createdAt) => createdAt > bound));
      expect(await listedAround('created_before', bound), `created_before=${bound}`).toEqual(expectedAround(bound, (createdAt) => createdAt < bound));
    }
  });

  it('limit 1 to 100 pages through after, with no offset; 0, 101 and a non-number are the 400 naming limit', async () => {
    const first = await listed('?limit=1');
    expect(first.ids).toEqual([running.id]);
    expect(first.page).toMatchObject({ has_more: true, first_id: running.id, last_id: running.id });
    const second = await listed(`?limit=1&after=${first.page.last_id ?? ''}`);
    expect(second.ids).toEqual([completed[1]?.id]);
    expect(second.page.has_more).toBe(true);
    const third = await listed(`?limit=2&after=${second.page.last_id ?? ''}`);
    expect(third.ids).toEqual([completed[0]?.id]);
    expect(third.page.has_more).toBe(false);
    expect((await listed('?limit=100')).ids).toHaveLength(3);
    for (const limit of ['0', '101', 'ten']) {
      const refused = await exchange(caller, { path: `/batches?limit=${limit}` });
      expect(refused.status, `limit=${limit}`).toBe(400);
      expect(envelope(refused).metadata).toMatchObject({ error_type: 'invalid_request', field: 'limit' });
    }
    const offset = await exchange(caller, { path: '/batches?offset=1' });
    expect(offset.status).toBe(400);
  });
});

describe('POST /batches/{id}/cancel', () => {
  it('validating and in_progress move to cancelling, then cancelled; again is unchanged; unsent requests are batch_cancelled and uncharged', async () => {
    const caller = await freshAccount();
    const before = await accountMoney(harness, caller.accountId);
    const cancel = (id: string) => exchange(caller, { path: `/batches/${id}/cancel`, method: 'POST' });
    const busy = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'slow', body: chatBody(`Slow ${SLOW}`) }] });
    await batchUntil(caller, busy.id, (batch) => batch.status === 'in_progress');
    // the account's runner is busy with the older batch: this one waits, validating
    const waiting = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: requestsOf([['w-1', chatBody('Hi')], ['w-2', chatBody('Hi')]]) });
    expect((await readBatch(caller, waiting.id)).status).toBe('validating');

    const first = await cancel(waiting.id);
    expect(first.status, first.text).toBe(200);
    expect(first.json).toMatchObject({ id: waiting.id, status: 'cancelling' });
    const again = await cancel(waiting.id);
    expect(again.status).toBe(200);
    expect((again.json as BatchView).status).toMatch(/^(cancelling|cancelled)$/);

    const cut = await cancel(busy.id);
    expect(cut.status).toBe(200);
    expect(cut.json).toMatchObject({ id: busy.id, status: 'cancelling' });

    const everyLine: ResultLineView[] = [];
    for (const [id, customIds] of [[busy.id, ['slow']], [waiting.id, ['w-1', 'w-2']]] as const) {
      const { batch, lines } = await endedWithLines(caller, id);
      expect(batch.status).toBe('cancelled');
      expect(batch.finalized_at).toEqual(expect.any(Number));
      expect(lines.map((line) => line.custom_id)).toEqual(customIds);
      for (const line of lines) expect(line).toMatchObject({ response: null, error: { type: 'batch_cancelled', code: null } });
      // a request stopped before it was answered is in neither count
      expect(batch.request_counts).toEqual({ total: customIds.length, completed: 0, failed: lines.filter((line) => line.error?.request_id).length });
      const unchanged = await cancel(id);
      expect(unchanged.status).toBe(200);
      expect(unchanged.json).toEqual({ ...batch, results: null });
      everyLine.push(...lines);
    }
    await expectChargedOnce(caller, everyLine, before.balance);
  });

  it('cancelling a completed batch is the 409, and it stays completed', async () => {
    const caller = await freshAccount();
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'a', body: chatBody('Hi') }] });
    const ended = await batchEnded(caller, accepted.id);
    expect(ended.status).toBe('completed');
    const reply = await exchange(caller, { path: `/batches/${accepted.id}/cancel`, method: 'POST' });
    expect(reply.status).toBe(409);
    expect(envelope(reply).code).toBe(409);
    expect(await readBatch(caller, accepted.id)).toEqual(ended);
  });

  it('cancelling a failed batch is the 409 too', async () => {
    const caller = await freshAccount();
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'a', body: chatBody('Hi', { temperature: 3 }) }] });
    expect((await batchEnded(caller, accepted.id)).status).toBe('failed');
    expect((await exchange(caller, { path: `/batches/${accepted.id}/cancel`, method: 'POST' })).status).toBe(409);
  });

  it('an unknown, a malformed and another account\'s batch id are one 404, to GET and to cancel', async () => {
    const owner = await freshAccount();
    const stranger = await freshAccount();
    const accepted = await acceptedBatch(owner, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'a', body: chatBody('Hi') }] });
    const replies: string[] = [];
    for (const id of [accepted.id, `batch_${'0'.repeat(32)}`, 'batch_xyz', 'file-abc', '..%2F..%2Fkeys']) {
      for (const request of [{ path: `/batches/${id}` }, { path: `/batches/${id}/cancel`, method: 'POST' }]) {
        const reply = await exchange(stranger, request);
        expect(reply.status, `${request.method ?? 'GET'} ${request.path}`).toBe(404);
        expect(envelope(reply).metadata.error_type).toBe('not_found');
        replies.push(JSON.stringify(reply.json));
      }
    }
    expect(new Set(replies).size).toBe(1);
    expect((await batchEnded(owner, accepted.id)).status).toBe('completed');
  });
});

describe('batches waiting or running per account', () => {
  it('the 11th is the 429 with metadata.limit 10 and metadata.active, and nothing of it is stored', async () => {
    const caller = await freshAccount();
    const ids: string[] = [];
    for (let index = 0; index < 10; index += 1) {
      ids.push((await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: `b${index}`, body: chatBody(index === 0 ? `Slow ${SLOW}` : 'Hi') }] })).id);
    }
    const refused = await submitBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'eleventh', body: chatBody('Hi') }] });
    expect(refused.status, refused.text).toBe(429);
    expect(envelope(refused)).toMatchObject({ code: 429, metadata: { error_type: 'rate_limit_exceeded', limit: 10, active: 10 } });
    const listed = (await exchange(caller, { path: '/batches?limit=100' })).json as { data: BatchView[] };
    expect(listed.data.map((batch) => batch.id)).toEqual([...ids].reverse());
    for (const id of ids) await exchange(caller, { path: `/batches/${id}/cancel`, method: 'POST' });
    for (const id of ids) expect((await batchEnded(caller, id)).status).toBe('cancelled');
    const later = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: [{ custom_id: 'later', body: chatBody('Hi') }] });
    expect((await batchEnded(caller, later.id)).status).toBe('completed');
  });
});

describe('the submitting key, as it stands when each request is sent', () => {
  const changes: Array<[string, (hash: string, management: string, caller: BatchCaller) => Promise<BatchReply>]> = [
    ['disabled', (hash, management, caller) => exchange(caller, { path: `/keys/${hash}`, method: 'PATCH', body: { disabled: true }, key: management })],
    ['revoked', (hash, management, caller) => exchange(caller, { path: `/keys/${hash}`, method: 'DELETE', key: management })],
  ];

  it.each(changes)('a key %s after submission authorises nothing more: the requests not yet sent fail with the 401, uncharged', async (_, change) => {
    const account = await freshAccount();
    const issued = await createKey(harness.gateway.store, { accountId: account.accountId, name: 'batch key' });
    const management = (await createKey(harness.gateway.store, { accountId: account.accountId, management: true, name: 'admin' })).key;
    const caller = { ...account, key: issued.key };
    const before = await accountMoney(harness, account.accountId);
    const sent = () => harness.sim.requests().filter((request) => JSON.stringify(request.body).includes(account.accountId));
    // eight in flight at most: the eight slow ones hold the account's places while the key changes
    const slow = Array.from({ length: 8 }, (_, index) => [`slow-${index}`, chatBody(`Slow ${index} ${account.accountId} [[sim ttft=3000]]`)] as const);
    const rest = Array.from({ length: 3 }, (_, index) => [`after-${index}`, chatBody(`After ${index} ${account.accountId}`)] as const);
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: requestsOf([...slow, ...rest]) });
    while (sent().length < 8) await new Promise((resolve) => setTimeout(resolve, 20));
    const changed = await change(issued.hash, management, caller);
    expect(changed.status, changed.text).toBeLessThan(300);

    const { lines } = await endedWithLines({ ...caller, key: account.key }, accepted.id);
    expect(lines.map((line) => line.custom_id)).toEqual([...slow, ...rest].map(([customId]) => customId));
    for (const line of lines.slice(8)) {
      expect(line).toMatchObject({ response: null, error: { type: 'authentication', code: 401, message: 'Missing or invalid API key' } });
    }
    expect(sent()).toHaveLength(8);
    await expectChargedOnce(account, lines, before.balance);
  });
});

describe('attribution', () => {
  it('X-Title and HTTP-Referer of the submission attribute every request\'s generation', async () => {
    const caller = await freshAccount();
    const accepted = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: requestsOf([['a', chatBody('Hi')], ['b', chatBody('There')]]) }, {
      'x-title': 'Nightly Digest', 'http-referer': 'https://digest.example',
    });
    const { lines } = await endedWithLines(caller, accepted.id);
    for (const line of lines) {
      expect(await generation(caller, line.response?.request_id ?? '')).toMatchObject({ app_title: 'Nightly Digest', app_referer: 'https://digest.example' });
    }
  });
});

describe('the messages and responses routes batch too', () => {
  const routes = [
    {
      endpoint: '/v1/messages', path: '/messages',
      good: { model: 'acme/chat', max_tokens: 16, messages: [{ role: 'user', content: 'Hi' }] },
      bad: { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] },
      reply: { type: 'message', role: 'assistant' },
    },
    {
      endpoint: '/v1/responses', path: '/responses',
      good: { model: 'acme/chat', input: 'Hi' },
      bad: { model: 'acme/chat', input: 'Hi', temperature: 3 },
      reply: { object: 'response', status: 'completed' },
    },
  ];

  it.each(routes)('$endpoint: replies in the route\'s own shape, billed once; a body failing its schema fails alone with the live route\'s error', async ({ endpoint, path, good, bad, reply }) => {
    const caller = await freshAccount();
    const before = await accountMoney(harness, caller.accountId);
    const accepted = await acceptedBatch(caller, { endpoint, requests: requestsOf([['one', good], ['bad', bad], ['two', good]]) });
    expect(accepted.endpoint).toBe(endpoint);
    const { batch, lines } = await endedWithLines(caller, accepted.id);
    expect(batch).toMatchObject({ status: 'completed', request_counts: { total: 3, completed: 2, failed: 1 } });
    for (const line of [lines[0], lines[2]]) {
      expect(line?.response).toMatchObject({ status_code: 200, body: reply });
      expect(await generation(caller, line?.response?.request_id ?? '')).toMatchObject({ status: 'success' });
    }
    const live = await exchange(caller, { path, body: bad });
    expect(live.status).toBe(400);
    expect(lines[1]).toMatchObject({ custom_id: 'bad', response: null, error: asLineError(envelope(live)) });
    await expectChargedOnce(caller, lines, before.balance);
  });
});

describe('the official openai client', () => {
  function inputLine(customId: string, text: string): string {
    return JSON.stringify({ custom_id: customId, method: 'POST', url: CHAT_ENDPOINT, body: chatBody(text) });
  }

  it('files.create, batches.create, batches.retrieve until ended and files.content make the round trip', async () => {
    const caller = await freshAccount();
    const client = harness.client.withOptions({ apiKey: caller.key });
    const jsonl = `${['q1', 'q2', 'q3'].map((id) => inputLine(id, `Question ${id}`)).join('\n')}\n`;
    const file = await client.files.create({ file: await toFile(Buffer.from(jsonl), 'batch-input.jsonl', { type: 'application/jsonl' }), purpose: 'batch' });
    const created = await client.batches.create({ input_file_id: file.id, endpoint: CHAT_ENDPOINT, completion_window: '24h', metadata: { job: 'nightly' } });
    expect(created).toMatchObject({ object: 'batch', status: 'validating', input_file_id: file.id, endpoint: CHAT_ENDPOINT, metadata: { job: 'nightly' } });
    expect(created.request_counts).toMatchObject({ total: 3 });

    let batch = await client.batches.retrieve(created.id);
    while (!['completed', 'failed', 'expired', 'cancelled'].includes(batch.status)) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      batch = await client.batches.retrieve(created.id);
    }
    expect(batch.status).toBe('completed');
    expect(batch.request_counts).toEqual({ total: 3, completed: 3, failed: 0 });
    expect(batch.output_file_id).toEqual(expect.any(String));
    expect(batch.output_file_id).toBe((batch as unknown as BatchView).results_file_id);
    const text = await (await client.files.content(batch.output_file_id ?? '')).text();
    const lines = text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as ResultLineView);
    expect(lines.map((line) => line.custom_id)).toEqual(['q1', 'q2', 'q3']);
    for (const line of lines) expect(line.response).toMatchObject({ status_code: 200, body: { object: 'chat.completion' } });

    const listed = [];
    for await (const entry of client.batches.list()) listed.push(entry.id);
    expect(listed).toEqual([created.id]);
  });

  it('a malformed JSONL line is the 400 naming its line number, and nothing is stored', async () => {
    const caller = await freshAccount();
    const client = harness.client.withOptions({ apiKey: caller.key });
    const jsonl = `${inputLine('q1', 'One')}\n{"custom_id": "q2", "method": "POST"\n${inputLine('q3', 'Three')}\n`;
    const file = await client.files.create({ file: await toFile(Buffer.from(jsonl), 'broken.jsonl'), purpose: 'batch' });
    const reply = await submitBatch(caller, { input_file_id: file.id, endpoint: CHAT_ENDPOINT, completion_window: '24h' });
    expect(reply.status, reply.text).toBe(400);
    expect(envelope(reply)).toMatchObject({ message: expect.stringMatching(/\bline 2\b/), metadata: { error_type: 'invalid_request' } });
    await expect(client.batches.create({ input_file_id: file.id, endpoint: CHAT_ENDPOINT, completion_window: '24h' })).rejects.toMatchObject({ status: 400 });
    expect(((await exchange(caller, { path: '/batches' })).json as { data: unknown[] }).data).toEqual([]);
  });
});

describe('a batch whose replies would not fit one stored file', () => {
  it('sends while a reply of 1 MiB still fits, then fails the rest results_full: unsent, uncharged, counted failed', async () => {
    const small = await startHarness({ models: [CHAT], fileSettings: { files: { max_upload_bytes: MiB + 1500 } } });
    try {
      const caller = { baseUrl: small.baseUrl, key: small.key };
      const before = small.sim.requests().length;
      const batch = await acceptedBatch(caller, { endpoint: CHAT_ENDPOINT, requests: requestsOf(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => [id, chatBody(id)] as const)) });
      const { batch: ended, lines } = await endedWithLines(caller, batch.id);
      const full = lines.filter((line) => line.error?.type === 'results_full');
      expect(full.length).toBeGreaterThan(0);
      expect(lines.slice(lines.length - full.length)).toEqual(full);
      for (const line of full) expect(line.error).toMatchObject({ code: null, request_id: null });
      const sent = lines.length - full.length;
      expect(small.sim.requests().length - before).toBe(sent);
      expect(ended).toMatchObject({ status: 'completed', request_counts: { total: 6, completed: sent, failed: full.length } });
    } finally {
      await small.close();
    }
  });
});
