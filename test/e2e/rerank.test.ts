import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { relevanceScore } from '../../src/sim/rerank-route.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness, type RawReply } from './harness.js';

const TOKEN_PRICE = '0.000001';
const DOCUMENTS = ['green pear tart', 'red apple pie with apple sauce', 'a red car', 'apple orchard in autumn'];
const QUERY = 'red apple';

function rerankEndpoint(provider: string, upstream: string, pricing: Record<string, string>): Record<string, unknown> & { provider: string; upstream_model: string } {
  return { provider, upstream_model: upstream, context_length: 8192, output_modalities: ['rerank'], supported_parameters: [], pricing };
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/rerank', endpoints: [rerankEndpoint('sim-cohere', 'rerank', {})] },
      { id: 'acme/rerank-tokens', endpoints: [rerankEndpoint('sim-a', 'rerank', { prompt: TOKEN_PRICE })] },
      { id: 'acme/rerank-request', endpoints: [rerankEndpoint('sim-cohere', 'rerank', { request: '0.002' })] },
      { id: 'acme/rerank-quiet', endpoints: [rerankEndpoint('sim-b', 'rerank;no_usage', { prompt: TOKEN_PRICE })] },
      {
        id: 'acme/rerank-failover',
        endpoints: [rerankEndpoint('sim-a', 'chat', { request: '0.0001' }), rerankEndpoint('sim-cohere', 'rerank', { request: '0.001' })],
      },
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
    ],
  });
});

afterAll(async () => harness.close());

interface RerankReply {
  id: string;
  model: string;
  provider: string;
  results: { index: number; relevance_score: number; document?: unknown }[];
  usage: { search_units: number | null; total_tokens: number | null; cost: number };
}

function rerank(body: Record<string, unknown>): Promise<RawReply> {
  return send(harness, { path: '/rerank', body: { model: 'acme/rerank', query: QUERY, documents: DOCUMENTS, ...body } });
}

function replyOf(reply: RawReply): RerankReply {
  expect(reply.status, reply.text).toBe(200);
  return reply.json as RerankReply;
}

/** Document positions ordered as the simulator scores them, best first. */
function expectedOrder(texts: readonly string[]): number[] {
  return texts
    .map((text, index) => ({ index, score: relevanceScore(QUERY, text) }))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .map((entry) => entry.index);
}

describe('rerank reply', () => {
  it('scores every document, ordered by score, highest first, without documents unless asked', async () => {
    const raw = await rerank({});
    const reply = replyOf(raw);
    expect(reply.id).toBe(raw.headers.get('x-generation-id'));
    expect(reply.model).toBe('acme/rerank');
    expect(reply.provider).toBe('Sim Cohere');
    expect(raw.headers.get('x-provider-name')).toBe('Sim Cohere');
    expect(reply.results.map((result) => result.index)).toEqual(expectedOrder(DOCUMENTS));
    expect(reply.results.map((result) => result.index)).toEqual([1, 2, 3, 0]);
    const scores = reply.results.map((result) => result.relevance_score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(reply.results.every((result) => !('document' in result))).toBe(true);
  });

  it('top_n cuts the results to the best n; a top_n above the document count returns all', async () => {
    const cut = replyOf(await rerank({ top_n: 2 }));
    expect(cut.results.map((result) => result.index)).toEqual([1, 2]);
    expect((harness.sim.requests().at(-1)?.body as Record<string, unknown>).top_n).toBe(2);
    const all = replyOf(await rerank({ top_n: 10 }));
    expect(all.results).toHaveLength(4);
  });

  it('top_n 0 is refused with 400 naming top_n', async () => {
    const reply = await rerank({ top_n: 0 });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^top_n/);
  });

  it('return_documents echoes each document exactly as submitted, strings and objects', async () => {
    const documents = [
      'red apple pie',
      { text: 'apples are red', title: 'Orchard notes', id: 'doc-7', metadata: { shelf: 3, tags: ['fruit', null] } },
      { text: 'a blue boat', title: null },
    ];
    const reply = replyOf(await rerank({ documents, return_documents: true }));
    expect(reply.results).toHaveLength(3);
    for (const result of reply.results) expect(result.document).toEqual(documents[result.index]);
    const sent = harness.sim.requests().at(-1)?.body as Record<string, unknown>;
    expect(sent.documents).toEqual(['red apple pie', 'Orchard notes\napples are red', 'a blue boat']);
    expect(sent.return_documents).toBeUndefined();
  });

  it('a document object with an unknown member or without text is refused with 400 naming the document', async () => {
    const unknown = await rerank({ documents: ['fine', { text: 'x', body: 'y' }] });
    expect(unknown.status).toBe(400);
    expect((unknown.json as ErrorEnvelope).error.message).toMatch(/^documents\[1\]\.body: unknown member/);
    const textless = await rerank({ documents: [{ title: 'only a title' }] });
    expect(textless.status).toBe(400);
    expect((textless.json as ErrorEnvelope).error.message).toMatch(/^documents\[0\]\.text: is required/);
    const badTitle = await rerank({ documents: [{ text: 'x', title: 7 }] });
    expect((badTitle.json as ErrorEnvelope).error.message).toMatch(/^documents\[0\]\.title/);
    const number = await rerank({ documents: ['x', 5] });
    expect(number.status).toBe(400);
    expect((number.json as ErrorEnvelope).error.message).toMatch(/^documents\[1\]/);
  });

  it('an empty documents list or a missing query is refused with 400', async () => {
    expect((await rerank({ documents: [] })).status).toBe(400);
    const reply = await send(harness, { path: '/rerank', body: { model: 'acme/rerank', documents: DOCUMENTS } });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^query/);
  });
});

describe('rerank wires', () => {
  it('a cohere provider is called on /v2/rerank and reports search units and tokens', async () => {
    const reply = replyOf(await rerank({}));
    expect(harness.sim.requests().at(-1)?.path).toBe('/v2/rerank');
    expect(reply.usage.search_units).toBe(1);
    expect(reply.usage.total_tokens).toBeGreaterThan(0);
  });

  it('an OpenAI-compatible provider declaring rerank is called on its /rerank', async () => {
    const reply = replyOf(await send(harness, { path: '/rerank', body: { model: 'acme/rerank-tokens', query: QUERY, documents: DOCUMENTS } }));
    expect(harness.sim.requests().at(-1)?.path).toBe('/v1/rerank');
    expect(reply.results.map((result) => result.index)).toEqual([1, 2, 3, 0]);
    expect(reply.usage.search_units).toBeNull();
  });

  it('an endpoint that does not serve rerank fails over to the next; a model with none gives 502', async () => {
    harness.sim.clearRequests();
    const moved = await send(harness, { path: '/rerank', body: { model: 'acme/rerank-failover', query: QUERY, documents: DOCUMENTS } });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('x-provider-name')).toBe('Sim Cohere');
    expect(harness.sim.requests().map((request) => request.path)).toEqual(['/v1/rerank', '/v2/rerank']);
    harness.sim.clearRequests();
    const none = await send(harness, { path: '/rerank', body: { model: 'acme/chat', query: QUERY, documents: DOCUMENTS } });
    expect(none.status).toBe(502);
    expect((none.json as ErrorEnvelope).error.message).toMatch(/no endpoint serves rerank/);
    expect(harness.sim.requests()).toHaveLength(0);
  });
});

describe('rerank billing', () => {
  async function recordOf(id: string): Promise<Record<string, unknown>> {
    const reply = await send(harness, { path: `/generation?id=${id}` });
    return (reply.json as { data: Record<string, unknown> }).data;
  }

  it('per token where the endpoint publishes a prompt price and reports a count', async () => {
    const before = await accountMoney(harness);
    const reply = replyOf(await send(harness, { path: '/rerank', body: { model: 'acme/rerank-tokens', query: QUERY, documents: DOCUMENTS } }));
    const tokens = reply.usage.total_tokens ?? 0;
    expect(tokens).toBeGreaterThan(0);
    const charged = parseUsd(TOKEN_PRICE) * BigInt(tokens);
    expect(reply.usage.cost).toBe(Number(formatUsd(charged)));
    expect(await accountMoney(harness)).toEqual({ balance: before.balance - charged, reserved: 0n });
    expect((await recordOf(reply.id)).cost_lines).toEqual([{ key: 'prompt', quantity: String(tokens), amount_usd: formatUsd(charged) }]);
  });

  it('per request where the endpoint publishes a request price', async () => {
    const reply = replyOf(await send(harness, { path: '/rerank', body: { model: 'acme/rerank-request', query: QUERY, documents: DOCUMENTS } }));
    expect(reply.usage.cost).toBe(0.002);
    const record = await recordOf(reply.id);
    expect(record.cost_usd).toBe('0.002');
    expect(record.cost_lines).toEqual([
      { key: 'prompt', quantity: String(reply.usage.total_tokens), amount_usd: null },
      { key: 'request', quantity: '1', amount_usd: '0.002' },
      { key: 'search_units', quantity: '1', amount_usd: null },
    ]);
  });

  it('with neither price the units are recorded unpriced and nothing is charged', async () => {
    const before = await accountMoney(harness);
    const reply = replyOf(await rerank({}));
    expect(reply.usage.cost).toBe(0);
    expect(await accountMoney(harness)).toEqual(before);
    const record = await recordOf(reply.id);
    expect(record.status).toBe('success');
    expect(record.cost_lines).toEqual([
      { key: 'prompt', quantity: String(reply.usage.total_tokens), amount_usd: null },
      { key: 'search_units', quantity: '1', amount_usd: null },
    ]);
  });

  it('unreported counts are null and a prompt price without a count charges nothing', async () => {
    const reply = replyOf(await send(harness, { path: '/rerank', body: { model: 'acme/rerank-quiet', query: QUERY, documents: DOCUMENTS } }));
    expect(reply.usage).toEqual({ search_units: null, total_tokens: null, cost: 0 });
  });
});
