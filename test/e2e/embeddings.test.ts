import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { embeddingVector } from '../../src/sim/embedding-vectors.js';
import { createAccount } from '../../src/accounts/accounts.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness, type RawReply } from './harness.js';

const PROMPT_PRICE = '0.0000001';
const PNG = 'data:image/png;base64,iVBORw0KGgo=';

function embeddingsEndpoint(provider: string, upstream: string, extra: Record<string, unknown> = {}): Record<string, unknown> & { provider: string; upstream_model: string } {
  return {
    provider,
    upstream_model: upstream,
    context_length: 8192,
    input_modalities: ['text'],
    output_modalities: ['embeddings'],
    supported_parameters: [],
    pricing: { prompt: PROMPT_PRICE },
    ...extra,
  };
}

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/embed',
        endpoints: [embeddingsEndpoint('sim-a', 'embed;split', { input_modalities: ['text', 'image', 'audio'], supported_dimensions: [4, 8] })],
      },
      { id: 'acme/embed-quiet', endpoints: [embeddingsEndpoint('sim-b', 'embed;no_usage')] },
      { id: 'acme/embed-short', endpoints: [embeddingsEndpoint('sim-a', 'embed', { context_length: 16 })] },
      { id: 'acme/embed-typed', endpoints: [embeddingsEndpoint('sim-c', 'embed', { supported_parameters: ['input_type'] })] },
      { id: 'acme/embed-zero', endpoints: [embeddingsEndpoint('sim-b', 'embed;zero_usage')] },
      { id: 'acme/embed-per-request', endpoints: [embeddingsEndpoint('sim-c', 'embed', { pricing: { request: '0.0002' } })] },
      {
        id: 'acme/embed-failover',
        endpoints: [
          embeddingsEndpoint('sim-a', 'chat', { pricing: { prompt: '0.00000001' } }),
          embeddingsEndpoint('sim-b', 'embed'),
        ],
      },
      { id: 'acme/embed-broken', endpoints: [embeddingsEndpoint('sim-a', 'chat')] },
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
    ],
  });
});

afterAll(async () => harness.close());

function embed(body: Record<string, unknown>): Promise<RawReply> {
  return send(harness, { path: '/embeddings', body: { model: 'acme/embed', ...body } });
}

interface EmbeddingsReply {
  object: string;
  id: string;
  model: string;
  provider: string;
  data: { object: string; index: number; embedding: number[] | string }[];
  usage: { prompt_tokens?: number; total_tokens?: number; prompt_tokens_details?: Record<string, number>; cost: number };
}

function replyOf(reply: RawReply): EmbeddingsReply {
  expect(reply.status, reply.text).toBe(200);
  return reply.json as EmbeddingsReply;
}

function float32(vector: number[]): number[] {
  return Array.from(new Float32Array(vector));
}

describe('embeddings through the official client', () => {
  it('float: one vector per input, in order, with generation id, model, provider and usage', async () => {
    const { data: reply, response } = await harness.client.embeddings
      .create({ model: 'acme/embed', input: ['alpha', 'beta'], encoding_format: 'float' })
      .withResponse();
    expect(reply.object).toBe('list');
    expect(reply.model).toBe('acme/embed');
    expect((reply as unknown as { id: string }).id).toBe(response.headers.get('x-generation-id'));
    expect((reply as unknown as { provider: string }).provider).toBe('Sim A');
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
    expect(reply.data.map((item) => [item.object, item.index])).toEqual([['embedding', 0], ['embedding', 1]]);
    expect(reply.data[0]?.embedding).toEqual(embeddingVector('alpha', 8));
    expect(reply.data[1]?.embedding).toEqual(embeddingVector('beta', 8));
    expect(reply.usage.prompt_tokens).toBeGreaterThan(0);
    expect(reply.usage.total_tokens).toBe(reply.usage.prompt_tokens);
  });

  it('base64 (the client default): the client decodes the same float32 vector', async () => {
    const reply = await harness.client.embeddings.create({ model: 'acme/embed', input: 'alpha' });
    expect(reply.data[0]?.embedding).toEqual(float32(embeddingVector('alpha', 8)));
    const last = harness.sim.requests().at(-1)?.body as Record<string, unknown>;
    expect(last.encoding_format).toBeUndefined();
  });

  it('encoding_format base64 answers a base64 string of little-endian float32', async () => {
    const reply = replyOf(await embed({ input: 'alpha', encoding_format: 'base64' }));
    const text = reply.data[0]?.embedding;
    expect(typeof text).toBe('string');
    const bytes = Buffer.from(text as string, 'base64');
    expect(Array.from(new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4))).toEqual(float32(embeddingVector('alpha', 8)));
  });

  it('an unknown encoding_format is refused with 400 naming it', async () => {
    const reply = await embed({ input: 'alpha', encoding_format: 'int8' });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^encoding_format/);
  });
});

describe('embeddings input forms', () => {
  it('a string array of 2,048 entries is served; 2,049 is refused with 400 naming input', async () => {
    const served = replyOf(await embed({ input: Array.from({ length: 2048 }, (_, index) => `t${index}`) }));
    expect(served.data).toHaveLength(2048);
    expect(served.data[2047]?.index).toBe(2047);
    harness.sim.clearRequests();
    const refused = await embed({ input: Array.from({ length: 2049 }, (_, index) => `t${index}`) });
    expect(refused.status).toBe(400);
    const { error } = refused.json as ErrorEnvelope;
    expect(error.message).toMatch(/^input: .*2048/);
    expect(error.metadata.error_type).toBe('invalid_request');
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('token arrays are forwarded unchanged: one array is one vector, an array of arrays one each', async () => {
    const one = replyOf(await embed({ input: [101, 102, 103] }));
    expect(one.data).toHaveLength(1);
    expect((harness.sim.requests().at(-1)?.body as Record<string, unknown>).input).toEqual([101, 102, 103]);
    expect(one.usage.prompt_tokens).toBe(3);
    const many = replyOf(await embed({ input: [[1, 2], [3, 4, 5]] }));
    expect(many.data).toHaveLength(2);
    expect(many.data[1]?.embedding).toEqual(embeddingVector([3, 4, 5], 8));
    expect(many.usage.prompt_tokens).toBe(5);
  });

  it('a mixed string and token array is refused with 400 naming input', async () => {
    const reply = await embed({ input: ['text', 7] });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^input/);
  });

  it('multimodal items are embedded into one vector each', async () => {
    const items = [
      { content: [{ type: 'text', text: 'a red square' }, { type: 'image_url', image_url: { url: PNG } }] },
      { content: [{ type: 'text', text: 'just words' }] },
    ];
    const reply = replyOf(await embed({ input: items }));
    expect(reply.data).toHaveLength(2);
    expect(reply.data[0]?.embedding).toEqual(embeddingVector(items[0], 8));
    expect((harness.sim.requests().at(-1)?.body as Record<string, unknown>).input).toEqual(items);
  });
});

describe('embeddings routing rules', () => {
  it('dimensions a live endpoint declares is routed there and sent upstream', async () => {
    const reply = replyOf(await embed({ input: 'alpha', dimensions: 4 }));
    expect(reply.data[0]?.embedding).toHaveLength(4);
    expect((harness.sim.requests().at(-1)?.body as Record<string, unknown>).dimensions).toBe(4);
  });

  it('dimensions no live endpoint declares is refused with 400 before any engine is reached', async () => {
    harness.sim.clearRequests();
    const reply = await embed({ input: 'alpha', dimensions: 16 });
    expect(reply.status).toBe(400);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.message).toMatch(/^dimensions: .*16/);
    expect(error.metadata.supported_dimensions).toEqual([4, 8]);
    const undeclared = await send(harness, { path: '/embeddings', body: { model: 'acme/embed-quiet', input: 'alpha', dimensions: 8 } });
    expect(undeclared.status).toBe(400);
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('dimensions 0 is refused with 400 naming dimensions', async () => {
    const reply = await embed({ input: 'alpha', dimensions: 0 });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^dimensions/);
  });

  it('a part of an undeclared modality is refused with 400 naming it before any provider call', async () => {
    harness.sim.clearRequests();
    const reply = await embed({
      input: [{ content: [{ type: 'text', text: 'clip' }, { type: 'input_video', input_video: { data: 'AAAA', format: 'mp4' } }] }],
    });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^input\[0\]\.content\[1\]: .*video/);
    const textOnlyModel = await send(harness, {
      path: '/embeddings',
      body: { model: 'acme/embed-quiet', input: [{ content: [{ type: 'image_url', image_url: { url: PNG } }] }] },
    });
    expect(textOnlyModel.status).toBe(400);
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('a text part is never judged: a text-only model embeds an item of text parts', async () => {
    const reply = await send(harness, {
      path: '/embeddings',
      body: { model: 'acme/embed-quiet', input: [{ content: [{ type: 'text', text: 'only words' }] }] },
    });
    expect(reply.status).toBe(200);
  });

  it('an endpoint that does not serve embeddings gives 502 and routing moves on', async () => {
    harness.sim.clearRequests();
    const moved = await send(harness, { path: '/embeddings', body: { model: 'acme/embed-failover', input: 'alpha' } });
    expect(moved.status).toBe(200);
    expect(moved.headers.get('x-provider-name')).toBe('Sim B');
    expect(harness.sim.requests().map((request) => (request.body as Record<string, unknown>).model)).toEqual(['chat', 'embed']);
    const failed = await send(harness, { path: '/embeddings', body: { model: 'acme/embed-broken', input: 'alpha' } });
    expect(failed.status).toBe(502);
    expect((failed.json as ErrorEnvelope).error.message).toMatch(/does not serve embeddings/);
  });

  it('a model none of whose endpoints serves embeddings gives 502 without calling a provider', async () => {
    harness.sim.clearRequests();
    const reply = await send(harness, { path: '/embeddings', body: { model: 'acme/chat', input: 'alpha' } });
    expect(reply.status).toBe(502);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/no endpoint serves embeddings/);
    expect(harness.sim.requests()).toHaveLength(0);
  });
});

describe('embeddings window', () => {
  it('each input must fit the window on its own; a batch larger than the window in total is served', async () => {
    const batch = Array.from({ length: 12 }, (_, index) => `short passage ${index}`);
    const served = replyOf(await send(harness, { path: '/embeddings', body: { model: 'acme/embed-short', input: batch } }));
    expect(served.data).toHaveLength(12);
    expect(served.usage.prompt_tokens).toBeGreaterThan(16);
    const long = await send(harness, { path: '/embeddings', body: { model: 'acme/embed-short', input: ['short', 'word '.repeat(40)] } });
    expect(long.status).toBe(503);
    expect((long.json as ErrorEnvelope).error.message).toMatch(/context window of 16/);
  });
});

describe('embeddings usage and billing', () => {
  it('charges prompt tokens at the prompt price and records it on the generation', async () => {
    const before = await accountMoney(harness);
    const reply = replyOf(await embed({ input: 'price me' }));
    const tokens = reply.usage.prompt_tokens ?? 0;
    const charged = parseUsd(PROMPT_PRICE) * BigInt(tokens);
    expect(reply.usage.cost).toBe(Number(formatUsd(charged)));
    expect(await accountMoney(harness)).toEqual({ balance: before.balance - charged, reserved: 0n });
    const record = await send(harness, { path: `/generation?id=${reply.id}` });
    const data = (record.json as { data: Record<string, unknown> }).data;
    expect(data.tokens_prompt).toBe(tokens);
    expect(data.cost_usd).toBe(formatUsd(charged));
    expect(data.cost_lines).toEqual([{ key: 'prompt', quantity: String(tokens), amount_usd: formatUsd(charged) }]);
  });

  it('unreported counts are omitted and the cost may be 0', async () => {
    const reply = replyOf(await send(harness, { path: '/embeddings', body: { model: 'acme/embed-quiet', input: 'alpha' } }));
    expect(reply.usage).toEqual({ cost: 0 });
  });

  it('an explicitly reported zero stays 0', async () => {
    const reply = replyOf(await send(harness, { path: '/embeddings', body: { model: 'acme/embed-zero', input: 'alpha' } }));
    expect(reply.usage).toEqual({ prompt_tokens: 0, total_tokens: 0, cost: 0 });
  });

  it('prompt_tokens_details appears only when the input mixed modalities', async () => {
    const mixed = replyOf(await embed({
      input: [{ content: [{ type: 'text', text: 'a red square' }, { type: 'image_url', image_url: { url: PNG } }] }],
    }));
    expect(mixed.usage.prompt_tokens_details).toEqual({ text_tokens: expect.any(Number), image_tokens: 64 });
    expect(mixed.usage.prompt_tokens).toBe((mixed.usage.prompt_tokens_details?.text_tokens ?? 0) + 64);
    const plain = replyOf(await embed({ input: ['one', 'two'] }));
    expect(plain.usage.prompt_tokens_details).toBeUndefined();
  });

  it('a request price bills per request', async () => {
    const reply = replyOf(await send(harness, { path: '/embeddings', body: { model: 'acme/embed-per-request', input: 'alpha' } }));
    expect(reply.usage.cost).toBe(0.0002);
  });
});

describe('GET /embeddings/models', () => {
  it('lists the models with a live embeddings endpoint, with the summary and supported_dimensions', async () => {
    const reply = await send(harness, { path: '/embeddings/models' });
    expect(reply.status).toBe(200);
    const records = (reply.json as { data: Record<string, unknown>[] }).data;
    const ids = records.map((record) => record.id);
    expect(ids).toContain('acme/embed');
    expect(ids).toContain('acme/embed-quiet');
    expect(ids).not.toContain('acme/chat');
    const embed = records.find((record) => record.id === 'acme/embed');
    expect(embed?.supported_dimensions).toEqual([4, 8]);
    expect(embed?.architecture).toMatchObject({ output_modalities: ['embeddings'] });
    expect(embed?.pricing).toEqual({ prompt: PROMPT_PRICE, discount: 0 });
    expect(records.find((record) => record.id === 'acme/embed-quiet')?.supported_dimensions).toBeNull();
  });

  it('needs no key: a catalogue read, counted against the client address', async () => {
    const reply = await send(harness, { path: '/embeddings/models', key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-limit')).not.toBeNull();
  });
});

describe('embeddings request members', () => {
  it('input_type reaches only endpoints declaring it', async () => {
    replyOf(await send(harness, { path: '/embeddings', body: { model: 'acme/embed-typed', input: 'alpha', input_type: 'search_query' } }));
    expect((harness.sim.requests().at(-1)?.body as Record<string, unknown>).input_type).toBe('search_query');
    replyOf(await embed({ input: 'alpha', input_type: 'search_query' }));
    expect((harness.sim.requests().at(-1)?.body as Record<string, unknown>).input_type).toBeUndefined();
  });

  it('input_type with provider.require_parameters routes only to endpoints declaring it', async () => {
    const reply = await embed({ input: 'alpha', input_type: 'search_query', provider: { require_parameters: true } });
    expect(reply.status).toBe(503);
  });

  it('an explicit null reads as if the member were left out and is not forwarded', async () => {
    replyOf(await embed({ input: 'alpha', dimensions: null, encoding_format: null, user: null }));
    const sent = harness.sim.requests().at(-1)?.body as Record<string, unknown>;
    expect(Object.keys(sent).sort()).toEqual(['input', 'model']);
  });

  it('user is forwarded, and refused past 256 characters', async () => {
    replyOf(await embed({ input: 'alpha', user: 'user-42' }));
    expect((harness.sim.requests().at(-1)?.body as Record<string, unknown>).user).toBe('user-42');
    const reply = await embed({ input: 'alpha', user: 'u'.repeat(257) });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/^user/);
  });

  it('a request the credit cannot hold is refused with 402 before any provider call', async () => {
    const poor = await createAccount(harness.gateway.store, { name: 'poor', creditsUsd: '0' });
    harness.sim.clearRequests();
    const reply = await send(harness, { path: '/embeddings', key: poor.key, body: { model: 'acme/embed', input: 'alpha' } });
    expect(reply.status).toBe(402);
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('a failed call is recorded on the generation and charges nothing', async () => {
    const before = await accountMoney(harness);
    const failed = await send(harness, { path: '/embeddings', body: { model: 'acme/embed-broken', input: 'alpha' } });
    expect(failed.status).toBe(502);
    expect(await accountMoney(harness)).toEqual(before);
    const record = await send(harness, { path: `/generation?id=${failed.headers.get('x-generation-id') ?? ''}` });
    const data = (record.json as { data: Record<string, unknown> }).data;
    expect(data.status).toBe('error');
    expect(data.cost_usd).toBe('0');
  });
});
