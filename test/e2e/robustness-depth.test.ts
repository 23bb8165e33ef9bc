import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_DEPTH } from '../../src/dialects/shared/body-depth.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const SPEECH = { input_modalities: ['text'], output_modalities: ['speech'], supported_parameters: [], speech_envelope: { voices: ['alloy'], codecs: ['mp3'] } };

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=4' }] },
      { id: 'acme/base', endpoints: [{ provider: 'sim-a', upstream_model: 'base;tokens=4', text_completions: true }] },
      { id: 'acme/embed', endpoints: [{ provider: 'sim-a', upstream_model: 'embed', output_modalities: ['embeddings'], supported_parameters: [] }] },
      { id: 'acme/rerank', endpoints: [{ provider: 'sim-cohere', upstream_model: 'rerank', output_modalities: ['rerank'], supported_parameters: [], pricing: { request: '0.001' } }] },
      { id: 'acme/tts', endpoints: [{ provider: 'sim-a', upstream_model: 'tts', ...SPEECH, pricing: { character: '0.000015' } }] },
    ],
  });
});

afterAll(async () => harness.close());

/** JSON text of `levels` objects nested in one another under the key `a`, written without recursion. */
function nested(levels: number): string {
  return `${'{"a":'.repeat(levels)}0${'}'.repeat(levels)}`;
}

const DEEP = '"@deep@"';

/** `body` as JSON text with every `"@deep@"` value replaced by `levels` nested objects. */
function withDeep(body: unknown, levels: number): string {
  return JSON.stringify(body).replaceAll(DEEP, nested(levels));
}

const TOO_DEEP = 5000;
const USER = [{ role: 'user', content: 'Hi' }];

/** Every route reading a JSON body, with a caller-owned member nested far too deeply. */
const DEEP_BODIES: { path: string; body: unknown; field: string }[] = [
  { path: '/chat/completions', body: { model: 'acme/chat', stream: true, messages: USER, metadata: '@deep@' }, field: 'metadata.a.a.a.a.a…' },
  { path: '/chat/completions', body: { model: 'acme/chat', messages: USER, tools: [{ type: 'function', function: { name: 'f', parameters: '@deep@' } }] }, field: 'tools[0].function.parameters.a.a…' },
  { path: '/messages', body: { model: 'acme/chat', max_tokens: 16, messages: USER, tools: [{ name: 'f', input_schema: '@deep@' }] }, field: 'tools[0].input_schema.a.a.a…' },
  { path: '/messages', body: { model: 'acme/chat', max_tokens: 16, stream: true, messages: USER, metadata: { user_id: 'u', x: '@deep@' } }, field: 'metadata.x.a.a.a.a…' },
  { path: '/messages/count_tokens', body: { model: 'acme/chat', messages: USER, tools: [{ name: 'f', input_schema: '@deep@' }] }, field: 'tools[0].input_schema.a.a.a…' },
  { path: '/responses', body: { model: 'acme/chat', input: 'Hi', tools: [{ type: 'function', name: 'f', parameters: '@deep@' }] }, field: 'tools[0].parameters.a.a.a…' },
  { path: '/completions', body: { model: 'acme/base', prompt: 'Once', metadata: '@deep@' }, field: 'metadata.a.a.a.a.a…' },
  { path: '/systemone', body: { model: 'acme/chat', state: '@deep@', questions: { q: { type: 'choice', instructions: 'Which?', criteria: { a: null, b: null } } } }, field: 'state.a.a.a.a.a…' },
  { path: '/rerank', body: { model: 'acme/rerank', query: 'red', documents: [{ text: 'apple', metadata: '@deep@' }], return_documents: true }, field: 'documents[0].metadata.a.a.a…' },
  { path: '/embeddings', body: { model: 'acme/embed', input: 'alpha', metadata: '@deep@' }, field: 'metadata.a.a.a.a.a…' },
  { path: '/audio/speech', body: { model: 'acme/tts', input: 'Hello', provider: '@deep@' }, field: 'provider.a.a.a.a.a…' },
];

describe(`bodies nested deeper than ${MAX_BODY_DEPTH} levels`, () => {
  it('are refused on every route with a 400 naming the path, before any provider call or charge', async () => {
    harness.sim.clearRequests();
    const before = await accountMoney(harness);
    for (const { path, body, field } of DEEP_BODIES) {
      const reply = await send(harness, { path, rawBody: withDeep(body, TOO_DEEP) });
      expect(reply.status, `${path}: ${reply.text.slice(0, 300)}`).toBe(400);
      const envelope = reply.json as ErrorEnvelope;
      expect(envelope.error.message, path).toBe(`${field}: nested deeper than ${MAX_BODY_DEPTH} levels`);
      expect(envelope.error.metadata, path).toMatchObject({ field });
      expect(reply.headers.get('x-generation-id'), path).toMatch(/^gen-/);
    }
    expect(harness.sim.requests()).toHaveLength(0);
    expect(await accountMoney(harness)).toEqual(before);
  });

  it('the limit counts the body as level 1: metadata reaching level 128 is served and billed, level 129 is refused', async () => {
    const body = { model: 'acme/chat', messages: USER, metadata: '@deep@' };
    const before = await accountMoney(harness);
    const within = await send(harness, { path: '/chat/completions', rawBody: withDeep(body, MAX_BODY_DEPTH - 1) });
    expect(within.status, within.text.slice(0, 300)).toBe(200);
    const after = await accountMoney(harness);
    expect(after.balance).toBeLessThan(before.balance);
    expect(after.reserved).toBe(0n);
    const record = await send(harness, { path: `/generation?id=${within.headers.get('x-generation-id') ?? ''}` });
    expect(record.status, record.text.slice(0, 300)).toBe(200);

    const over = await send(harness, { path: '/chat/completions', rawBody: withDeep(body, MAX_BODY_DEPTH) });
    expect(over.status).toBe(400);
    expect((over.json as ErrorEnvelope).error.message).toBe(`metadata.a.a.a.a.a…: nested deeper than ${MAX_BODY_DEPTH} levels`);
    expect(await accountMoney(harness)).toEqual(after);
  });

  it('deep arrays count like objects, and a multipart speech form is judged once read into its body', async () => {
    const arrays = await send(harness, { path: '/embeddings', rawBody: `{"model":"acme/embed","input":${'['.repeat(TOO_DEEP)}${']'.repeat(TOO_DEEP)}}` });
    expect(arrays.status).toBe(400);
    expect((arrays.json as ErrorEnvelope).error.message).toBe(`input[0][0][0][0][0]…: nested deeper than ${MAX_BODY_DEPTH} levels`);

    const form = new FormData();
    form.append('model', 'acme/tts');
    form.append('input', 'Hello');
    form.append('provider', `{"order":["sim-a"],"x":${nested(TOO_DEEP)}}`);
    const response = await fetch(`${harness.baseUrl}/audio/speech`, { method: 'POST', headers: { authorization: `Bearer ${harness.key}` }, body: form });
    expect(response.status).toBe(400);
    expect(((await response.json()) as ErrorEnvelope).error.message).toBe(`provider.x.a.a.a.a…: nested deeper than ${MAX_BODY_DEPTH} levels`);
  });
});
