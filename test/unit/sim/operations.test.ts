import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../../../src/sim/server.js';
import { embeddingVector } from '../../../src/sim/embedding-vectors.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => sim.close());

async function post(path: string, body: unknown): Promise<{ status: number; json: Record<string, unknown> }> {
  const response = await fetch(`${sim.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as Record<string, unknown> };
}

describe('simulator embeddings', () => {
  test('the official client reads the same vectors as floats and as base64', async () => {
    const client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sim', maxRetries: 0 });
    const floats = await client.embeddings.create({ model: 'embed;dims=16', input: ['one', 'two'], encoding_format: 'float' });
    const decoded = await client.embeddings.create({ model: 'embed;dims=16', input: ['one', 'two'] });
    expect(floats.data.map((item) => item.embedding)).toEqual([embeddingVector('one', 16), embeddingVector('two', 16)]);
    expect(decoded.data.map((item) => item.embedding)).toEqual(floats.data.map((item) => item.embedding));
    expect(floats.usage).toEqual({ prompt_tokens: 2, total_tokens: 2 });
  });

  test('vectors are deterministic, distinct per input and of the requested dimensions', async () => {
    const { json } = await post('/v1/embeddings', { model: 'embed', input: 'same', dimensions: 40 });
    const again = await post('/v1/embeddings', { model: 'embed', input: 'same', dimensions: 40 });
    const data = json.data as { embedding: number[] }[];
    expect(data[0]?.embedding).toHaveLength(40);
    expect(data).toEqual(again.json.data);
    expect(embeddingVector('same', 8)).not.toEqual(embeddingVector('other', 8));
  });

  test('usage behaviours: split by modality, no usage, explicit zeros', async () => {
    const item = { content: [{ type: 'text', text: 'a cat' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AA==' } }] };
    const split = await post('/v1/embeddings', { model: 'embed;split', input: [item] });
    expect(split.json.usage).toEqual({ prompt_tokens: 66, total_tokens: 66, prompt_tokens_details: { text_tokens: 2, image_tokens: 64 } });
    expect((await post('/v1/embeddings', { model: 'embed;no_usage', input: 'x' })).json.usage).toBeUndefined();
    expect((await post('/v1/embeddings', { model: 'embed;zero_usage', input: 'x' })).json.usage).toEqual({ prompt_tokens: 0, total_tokens: 0 });
  });

  test('a model not named embed… does not serve embeddings (404); errors and unknown keys are answered', async () => {
    expect((await post('/v1/embeddings', { model: 'chat', input: 'x' })).status).toBe(404);
    expect((await post('/v1/embeddings', { model: 'embed;error=503', input: 'x' })).status).toBe(503);
    const unknown = await post('/v1/embeddings', { model: 'embed;sparkle', input: 'x' });
    expect(unknown.status).toBe(400);
    expect((unknown.json.error as { message: string }).message).toMatch(/sparkle/);
  });
});

describe('simulator rerank', () => {
  const body = { model: 'rerank', query: 'red apple', documents: ['pear', 'red apple', 'red'], top_n: 2 };

  test('Cohere-style /v2/rerank: best first, cut to top_n, search units and tokens in meta', async () => {
    const { status, json } = await post('/v2/rerank', body);
    expect(status).toBe(200);
    expect((json.results as { index: number }[]).map((result) => result.index)).toEqual([1, 2]);
    expect(json.meta).toMatchObject({ billed_units: { search_units: 1 }, tokens: { input_tokens: expect.any(Number) } });
    expect(json.usage).toBeUndefined();
  });

  test('OpenAI-compatible /v1/rerank: usage.total_tokens and documents when asked', async () => {
    const { json } = await post('/v1/rerank', { ...body, return_documents: true });
    expect(json.usage).toEqual({ total_tokens: expect.any(Number) });
    expect((json.results as { document: { text: string } }[])[0]?.document).toEqual({ text: 'red apple' });
    expect(json.meta).toBeUndefined();
  });

  test('a model not named rerank… is 404; no_usage drops every count', async () => {
    expect((await post('/v2/rerank', { ...body, model: 'chat' })).status).toBe(404);
    const quiet = await post('/v2/rerank', { ...body, model: 'rerank;no_usage' });
    expect(quiet.json.meta).toEqual({ api_version: { version: '2' } });
  });
});
