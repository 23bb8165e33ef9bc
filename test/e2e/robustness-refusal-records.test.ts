import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startHarness, type Harness, type RawReply } from './harness.js';

/**
 * A body refused before anything is held (spec 02 Errors 6): every authenticated refusal carries an
 * X-Generation-Id that reads back through GET /generation, on every inference route, whatever the
 * route's envelope and however late it learns the key; a request without a valid key gets the one 401
 * whatever is wrong with its body.
 */
const LIMIT = 4096;

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }],
    settings: { bodyLimitBytes: LIMIT },
  });
});

afterAll(async () => harness.close());

const ROUTES = ['/chat/completions', '/completions', '/messages', '/responses', '/embeddings', '/rerank', '/systemone', '/audio/speech'];

const DEEP = `{"model":"acme/chat","metadata":{"a":${'['.repeat(130)}${']'.repeat(130)}}}`;

const BODIES: Array<[string, { rawBody: string; headers?: Record<string, string> }, number]> = [
  ['malformed JSON', { rawBody: '{"model":' }, 400],
  ['a content type that is not JSON', { rawBody: '<model/>', headers: { 'content-type': 'application/xml' } }, 400],
  ['an empty body', { rawBody: '' }, 400],
  ['nesting deeper than 128 levels', { rawBody: DEEP }, 400],
  ['a body over the limit', { rawBody: JSON.stringify({ model: 'acme/chat', padding: 'x'.repeat(LIMIT) }) }, 413],
  ['malformed JSON asking for a stream', { rawBody: '{"stream":true,"model":' }, 400],
];

/** The status and error_type of a refusal, in the shared envelope or the messages dialect's. */
function refusalOf(reply: RawReply): { code: number; errorType: string } {
  const error = (reply.json as { error?: { code?: number; metadata?: { error_type?: string } } } | undefined)?.error;
  return { code: error?.code ?? 0, errorType: error?.metadata?.error_type ?? '' };
}

describe.each(ROUTES)('%s', (path) => {
  it.each(BODIES)('a body with %s is refused under a generation id that reads back', async (_name, request, status) => {
    const refused = await send(harness, { path, ...request });
    expect(refused.status, refused.text).toBe(status);
    expect(refusalOf(refused).code).toBe(status);
    const id = refused.headers.get('x-generation-id');
    expect(id).toMatch(/^gen-/);
    const generation = await send(harness, { path: `/generation?id=${id}` });
    expect(generation.status, generation.text).toBe(200);
    expect(generation.json).toMatchObject({ data: { id, status: 'error', total_cost: 0, error: { code: status } } });
  });

  it('a key sent as x-api-key is known to the refusal too', async () => {
    const refused = await send(harness, { path, rawBody: '{"model":', key: null, headers: { 'x-api-key': harness.key } });
    expect(refused.status).toBe(400);
    const generation = await send(harness, { path: `/generation?id=${refused.headers.get('x-generation-id')}` });
    expect(generation.status).toBe(200);
  });

  it.each([
    ['a wrong key', 'sk-svc-v1-0000000000000000000000000000000000000000000000000000000000000000'],
    ['no key', null],
  ])('%s with a malformed body gets the one 401, and nothing is recorded', async (_name, key) => {
    const refused = await send(harness, { path, rawBody: '{"stream":true,"model":', key });
    expect(refused.status, refused.text).toBe(401);
    expect(refusalOf(refused)).toEqual({ code: 401, errorType: 'authentication' });
    const id = refused.headers.get('x-generation-id');
    expect(id).toMatch(/^gen-/);
    expect((await send(harness, { path: `/generation?id=${id}` })).status).toBe(404);
  });
});
