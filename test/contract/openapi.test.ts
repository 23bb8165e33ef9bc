import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../src/accounts/accounts.js';
import { rawReply, send, startHarness, type Harness, type RawReply } from '../e2e/harness.js';
import { documentSchemas, operations, reachedComponents, registeredRoutes, schemaCompiler, type OpenApiDocument, type Operation, type Response } from './openapi-document.js';

/** Headers the document says are sent only in some cases. */
const SOMETIMES_SENT = new Set(['Retry-After', 'X-Service-Voice']);

const SPEECH_ENDPOINT = {
  provider: 'sim-a',
  upstream_model: 'tts',
  input_modalities: ['text'],
  output_modalities: ['speech'],
  supported_parameters: [],
  pricing: { character: '0.000015' },
  speech_envelope: { voices: ['alloy'], codecs: ['mp3', 'wav'] },
};

/**
 * A model with every catalogue fact the listing shows (hub reading, family, expiry, reasoning
 * controls, quantization, discount and conditional prices, envelopes, benchmarks, capacity), on a
 * provider that states its pages, so the catalogue replies carry their optional members.
 */
const RICH_MODEL = {
  id: 'acme/rich',
  name: 'Acme: Rich',
  description: 'Every fact the listing shows.',
  expiration_date: '2027-01-31',
  family: { id: 'acme-rich', name: 'Acme Rich' },
  hub_id: 'acme/rich-7b',
  hub: { id: 'acme/rich-7b', read_at: '2025-06-02T10:00:00Z', likes: 12, languages: ['en'], evaluations: [{ dataset: 'mmlu', metric: 'accuracy', value: 0.7 }] },
  default_parameters: { temperature: 0.7, top_k: 40 },
  tags: ['chat'],
  endpoints: [
    {
      provider: 'sim-a', upstream_model: 'chat;tokens=20;tps=400', quantization: 'fp8', tokenizer: 'GPT', max_prompt_tokens: 16000, supports_implicit_caching: true,
      supported_parameters: ['max_tokens', 'reasoning', 'tools', 'tool_choice'],
      reasoning: { supported_efforts: ['high', 'low'], mandatory: false, default_effort: 'low' },
      benchmarks: [{ dataset: 'mmlu', score: 71.5, sample_count: 1000 }],
      capacity: { current: 3, total: 8, updated_at: '2025-06-02T00:00:00Z' },
      pricing: {
        prompt: '0.000001', completion: '0.000002', input_cache_read: '0.0000001', discount: '0.25',
        overrides: [{ min_prompt_tokens: 128000, prompt: '0.000002' }, { utc_start: 2200, utc_end: '0600', utc_days: ['friday'], prompt: '0.0000005' }],
      },
    },
    {
      provider: 'sim-b', upstream_model: 'chat', output_modalities: ['text', 'image'],
      image_envelope: { sizes: ['1024x1024'], formats: ['png'], max_images: 2 },
      render_parameters: { image: { steps: { type: 'integer', minimum: 1, maximum: 50 } } },
      pricing: { prompt: '0.000003', completion: '0.000004', image_output: '0.04' },
    },
  ],
};

const PROVIDERS = { 'sim-a': { headquarters: 'US', privacy_policy_url: 'https://sim-a.example/privacy', compliance: { zdr: true, hipaa: false, zdr_status: 'contractual' } } };

/** The measured figures' clock, moved by the test. */
const clock = { now: Date.parse('2025-07-01T12:00:10Z') };

let harness: Harness;
let document: OpenApiDocument;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3', text_completions: true, supported_parameters: ['max_tokens', 'logprobs', 'top_logprobs'] }] },
      { id: 'acme/embed', endpoints: [{ provider: 'sim-a', upstream_model: 'embed', input_modalities: ['text'], output_modalities: ['embeddings'], supported_parameters: [] }] },
      { id: 'acme/rerank', endpoints: [{ provider: 'sim-cohere', upstream_model: 'rerank', output_modalities: ['rerank'], supported_parameters: [], pricing: {} }] },
      { id: 'acme/tts', endpoints: [SPEECH_ENDPOINT] },
      { id: 'acme/judge', endpoints: [{ provider: 'sim-a', upstream_model: 'judge', supported_parameters: ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'] }] },
      RICH_MODEL,
    ],
    providers: PROVIDERS,
    figures: { now: () => clock.now, syncIntervalMs: 3_600_000 },
  });
  const reply = await send(harness, { path: '/openapi.json', key: null });
  expect(reply.status).toBe(200);
  document = reply.json as OpenApiDocument;
});

afterAll(async () => harness.close());

/** The operations under the API root (the operator's probes beside it are not part of this contract). */
function apiOperations(): [string, Operation, string][] {
  return [...operations(document)].filter(([path]) => path.startsWith('/api/v1/'));
}

function operation(method: string, path: string): Operation {
  const found = document.paths[`/api/v1${path}`]?.[method];
  if (!found) throw new Error(`no operation ${method} ${path}`);
  return found;
}

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    expect(document.openapi).toBe('3.1.0');
    await expect(SwaggerParser.validate(structuredClone(document) as never)).resolves.toBeTruthy();
  });

  it('holds only schemas that compile as JSON Schema 2020-12, with every reference resolved', () => {
    const compile = schemaCompiler(document);
    const failures: string[] = [];
    for (const [where, schema] of documentSchemas(document)) {
      if (schema === undefined) continue;
      try {
        compile(schema);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it('describes every route under /api/v1 the server answers', () => {
    const routes = registeredRoutes(harness.gateway.app.printRoutes({ commonPrefix: false }))
      // HEAD mirrors GET; OPTIONS answers the key scope's CORS preflights (http/cors.ts): neither is an operation
      .filter((route) => !route.startsWith('HEAD ') && !route.startsWith('OPTIONS ') && / \/api\/v1(\/|$)/.test(route))
      // the prefix root answers with and without its slash: one operation
      .map((route) => route.replace(/ \/api\/v1$/, ' /api/v1/').replace(/:(\w+)/g, '{$1}'));
    expect(routes.length).toBeGreaterThan(10);
    const documented = apiOperations().map(([path, , method]) => `${method.toUpperCase()} ${path}`);
    expect([...new Set(routes)].sort()).toEqual(documented.sort());
  });

  it('gives every operation a unique operationId, declared tags, a success reply and errors in the shared envelope', () => {
    const ids = new Set<string>();
    const tags = new Set((document.tags ?? []).map((tag) => tag.name));
    for (const [path, op, method] of apiOperations()) {
      const at = `${method} ${path}`;
      expect(op.operationId, at).toMatch(/^[a-z][A-Za-z]+$/);
      expect(ids.has(op.operationId ?? ''), `${at}: operationId repeated`).toBe(false);
      ids.add(op.operationId ?? '');
      expect(op.tags?.length, at).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(tags, `${at}: tag ${tag}`).toContain(tag);
      const statuses = Object.keys(op.responses);
      expect(statuses.some((status) => status.startsWith('2')), `${at}: no success reply`).toBe(true);
      const errors = statuses.filter((status) => /^[45]/.test(status));
      expect(errors.length, `${at}: no error reply`).toBeGreaterThan(0);
      for (const status of errors) {
        const schema = op.responses[status]?.content?.['application/json']?.schema;
        expect(reachedComponents(document, schema), `${at} ${status}`).toContain('ErrorMetadata');
      }
    }
  });

  it('documents the key the server asks for: none on public routes, a management key on management routes, an inference key in either header elsewhere', async () => {
    for (const [path, op, method] of apiOperations()) {
      const reply = await fetch(`${harness.gateway.url}${path}`, {
        method: method.toUpperCase(),
        ...(method === 'post' && { headers: { 'content-type': 'application/json' }, body: '{}' }),
      });
      await reply.arrayBuffer();
      const schemes = (op.security ?? []).flatMap((requirement) => Object.keys(requirement));
      if (schemes.length === 0) expect(reply.status, `${method} ${path}`).not.toBe(401);
      else {
        expect(reply.status, `${method} ${path}`).toBe(401);
        if (schemes.includes('managementKey')) {
          expect(schemes, `${method} ${path}`).toEqual(['managementKey']);
          const withInferenceKey = await fetch(`${harness.gateway.url}${path}`, { method: method.toUpperCase(), headers: { authorization: `Bearer ${harness.key}` } });
          await withInferenceKey.arrayBuffer();
          expect(withInferenceKey.status, `${method} ${path} with an inference key`).toBe(401);
        } else expect(schemes.sort(), `${method} ${path}`).toEqual(['inferenceKey', 'inferenceKeyHeader']);
      }
    }
  });

  it('describes the speech route\'s JSON body and its multipart form with a voice sample', () => {
    const content = operation('post', '/audio/speech').requestBody?.content ?? {};
    expect(Object.keys(content).sort()).toEqual(['application/json', 'multipart/form-data']);
    const form = document.components.schemas.SpeechForm as { properties: Record<string, unknown>; required: string[] };
    expect(Object.keys(form.properties)).toEqual(expect.arrayContaining(['model', 'input', 'voice', 'file', 'transcript', 'provider']));
    expect(form.required.sort()).toEqual(['input', 'model']);
  });
});

describe('real replies conform to the documented ones', () => {
  let compile: ReturnType<typeof schemaCompiler>;
  /** Catalogue replies are checked member by member: one the document does not name fails. */
  let compileClosed: ReturnType<typeof schemaCompiler>;
  beforeAll(() => {
    compile = schemaCompiler(document);
    compileClosed = schemaCompiler(document, { closed: true });
  });

  /** The documented response of the reply's status, with every header it documents as always sent. */
  function documentedResponse(method: string, path: string, reply: { status: number; headers: Headers }): Response {
    const response = operation(method, path).responses[String(reply.status)];
    if (!response) throw new Error(`${method} ${path} answered ${reply.status}, which is not documented`);
    for (const name of Object.keys(response.headers ?? {}).filter((header) => !SOMETIMES_SENT.has(header))) {
      expect(reply.headers.get(name), `${method} ${path} ${reply.status} header ${name}`).not.toBeNull();
    }
    return response;
  }

  function expectDocumented(method: string, path: string, reply: RawReply, options: { closed?: boolean } = {}): void {
    const validate = (options.closed ? compileClosed : compile)(documentedResponse(method, path, reply).content?.['application/json']?.schema);
    expect(validate(reply.json) ? [] : validate.errors, `${method} ${path} ${reply.status}: ${reply.text.slice(0, 500)}`).toEqual([]);
  }

  const chat = { model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] };
  const cases: [string, string, number, Record<string, unknown>?][] = [
    ['get', '/', 200],
    ['get', '/key', 200],
    ['post', '/chat/completions', 200, { ...chat, logprobs: true, top_logprobs: 2 }],
    ['post', '/chat/completions', 400, { ...chat, top_p: 0 }],
    ['post', '/chat/completions', 404, { ...chat, model: 'acme/none' }],
    ['post', '/completions', 200, { model: 'acme/chat', prompt: 'Once upon' }],
    ['post', '/messages', 200, { ...chat, max_tokens: 50 }],
    ['post', '/messages', 400, { ...chat }],
    ['post', '/messages/count_tokens', 200, chat],
    ['post', '/responses', 200, { model: 'acme/chat', input: 'Hi' }],
    ['post', '/responses', 404, { model: 'acme/none', input: 'Hi', stream: true }],
    ['post', '/embeddings', 200, { model: 'acme/embed', input: ['a', 'b'] }],
    ['post', '/rerank', 200, { model: 'acme/rerank', query: 'red apple', documents: ['a red apple', 'a car'], return_documents: true }],
    ['post', '/systemone', 200, {
      model: 'acme/judge',
      state: 'Customer: I was charged twice, refund me today.',
      questions: {
        urgency: { type: 'choice', instructions: 'How urgent? [[sim top=B:0.7,A:0.2,C:0.1]]', criteria: { low: 'can wait', high: 'today', unclear: null } },
        anger: { type: 'score', instructions: 'How frustrated? [[sim top=2:0.5,1:0.5]]', criteria: ['calm', 'annoyed', 'angry'] },
        billing: { type: 'noul', instructions: 'About billing? [[sim top=yes:0.8,no:0.2]]' },
      },
    }],
  ];

  it.each(cases)('%s %s answers %i as documented', async (method, path, status, body) => {
    const reply = await send(harness, { method: method.toUpperCase(), path, body });
    expect(reply.status).toBe(status);
    expectDocumented(method, path, reply);
  });

  /** Catalogue reads: the address they are sent to, the operation's path, and the status. */
  const catalogueCases: [string, string, number][] = [
    ['/models', '/models', 200],
    ['/models?sort=price-low-to-high&limit=2&supported_parameters=tools', '/models', 200],
    ['/models?category=programming', '/models', 200],
    ['/models?limit=0', '/models', 400],
    ['/models?colour=red', '/models', 400],
    ['/models/count', '/models/count', 200],
    ['/models/count?limit=1', '/models/count', 400],
    ['/models/user', '/models/user', 200],
    ['/models/user?limit=1&offset=1', '/models/user', 200],
    ['/models/user?q=chat', '/models/user', 400],
    ['/models/acme/rich', '/models/{author}/{slug}', 200],
    ['/models/acme/none', '/models/{author}/{slug}', 404],
    ['/model/acme/rich', '/model/{author}/{slug}', 200],
    ['/model/acme/none', '/model/{author}/{slug}', 404],
    ['/models/acme%2Frich', '/models/{author}', 200],
    ['/models/acme%2Fnone', '/models/{author}', 404],
    ['/models/acme/rich/endpoints', '/models/{author}/{slug}/endpoints', 200],
    ['/models/acme/none/endpoints', '/models/{author}/{slug}/endpoints', 404],
    ['/models/acme/rich/endpoints?x=1', '/models/{author}/{slug}/endpoints', 400],
    ['/providers', '/providers', 200],
    ['/families', '/families', 200],
    ['/stats/public', '/stats/public', 200],
    ['/stats/public?x=1', '/stats/public', 400],
    ['/embeddings/models', '/embeddings/models', 200],
    ['/speech/models', '/speech/models', 200],
  ];

  it.each(catalogueCases)('GET %s (operation %s) answers %i as documented, every member named', async (address, path, status) => {
    const reply = await send(harness, { path: address });
    expect(reply.status).toBe(status);
    expectDocumented('get', path, reply, { closed: true });
  });

  it('the endpoint listing with measured figures answers as documented, every member named', async () => {
    for (let index = 0; index < 10; index += 1) {
      const served = await fetch(`${harness.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'acme/rich', stream: true, messages: [{ role: 'user', content: 'Count' }], provider: { only: ['sim-a'] } }),
      });
      expect(served.status).toBe(200);
      await served.text();
    }
    clock.now += 60_000;
    await harness.gateway.services.state.figures.sync();
    const reply = await send(harness, { path: '/models/acme/rich/endpoints' });
    const measured = (reply.json as { data: { endpoints: Record<string, unknown>[] } }).data.endpoints.find((entry) => entry.provider_slug === 'sim-a');
    expect(measured).toMatchObject({ uptime_last_5m: 100, uptime_last_5m_samples: 10, throughput_last_30m_samples: 10, latency_last_30m_samples: 10 });
    expect(measured?.ttft_last_30m).toEqual(expect.objectContaining({ p50: expect.any(Number), p99: expect.any(Number) }));
    expectDocumented('get', '/models/{author}/{slug}/endpoints', reply, { closed: true });
  });

  it('GET /generation reads back a served generation as documented', async () => {
    const served = await harness.client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] });
    const reply = await send(harness, { path: `/generation?id=${served.id}` });
    expectDocumented('get', '/generation', reply);
  });

  it('the account routes answer as documented', async () => {
    for (const [address, path, status] of [['/credits', '/credits', 200], ['/activity', '/activity', 200], ['/activity?date=1999-01-01', '/activity', 400]] as const) {
      const reply = await send(harness, { path: address });
      expect(reply.status, address).toBe(status);
      expectDocumented('get', path, reply);
    }
  });

  it('the key management routes and the audit trail answer as documented', async () => {
    const key = (await createKey(harness.gateway.store, { accountId: harness.accountId, management: true })).key;
    const created = await send(harness, { path: '/keys', body: { name: 'documented', limit: 1.5, limit_reset: 'weekly' }, key });
    expect(created.status).toBe(201);
    expectDocumented('post', '/keys', created);
    const hash = (created.json as { data: { hash: string } }).data.hash;
    const asked: [string, string, string, number, unknown?][] = [
      ['GET', '/keys', '/keys', 200],
      ['POST', '/keys', '/keys', 400, { name: 'x', limit: -1 }],
      ['GET', `/keys/${hash}`, '/keys/{hash}', 200],
      ['GET', `/keys/${'0'.repeat(64)}`, '/keys/{hash}', 404],
      ['PATCH', `/keys/${hash}`, '/keys/{hash}', 200, { disabled: true }],
      ['PATCH', `/keys/${hash}`, '/keys/{hash}', 400, { disabled: 'no' }],
      ['DELETE', `/keys/${hash}`, '/keys/{hash}', 200],
      ['GET', '/audit?limit=2', '/audit', 200],
      ['GET', '/audit?limit=0', '/audit', 400],
    ];
    for (const [method, address, path, status, body] of asked) {
      const reply = await send(harness, { method, path: address, body, key });
      expect(reply.status, `${method} ${address}`).toBe(status);
      expectDocumented(method.toLowerCase(), path, reply);
    }
  });

  it('the file routes answer as documented, every member named', async () => {
    const form = new FormData();
    form.set('purpose', 'batch');
    form.set('file', new Blob(['{"custom_id":"a"}\n'], { type: 'application/jsonl' }), 'a.jsonl');
    const created = await rawReply(await fetch(`${harness.baseUrl}/files`, { method: 'POST', headers: { authorization: `Bearer ${harness.key}` }, body: form }));
    expect(created.status).toBe(200);
    expectDocumented('post', '/files', created, { closed: true });
    const id = (created.json as { id: string }).id;
    const asked: [string, string, string, number][] = [
      ['GET', '/files', '/files', 200],
      ['GET', '/files?limit=0', '/files', 400],
      ['GET', `/files/${id}`, '/files/{id}', 200],
      ['GET', '/files/file-unknown', '/files/{id}', 404],
      ['GET', '/files/file-unknown/content', '/files/{id}/content', 404],
      ['DELETE', `/files/${id}`, '/files/{id}', 200],
    ];
    for (const [method, address, path, status] of asked) {
      const reply = await send(harness, { method, path: address });
      expect(reply.status, `${method} ${address}`).toBe(status);
      expectDocumented(method.toLowerCase(), path, reply, { closed: status === 200 });
    }
  });

  it('the batch routes answer as documented, every member named, results inline included', async () => {
    const submitted = await send(harness, { path: '/batches', body: { endpoint: '/v1/chat/completions', requests: [{ custom_id: 'a', body: chat }, { custom_id: 'b', body: { ...chat, temperature: 'warm' } }] } });
    expect(submitted.status).toBe(202);
    expectDocumented('post', '/batches', submitted, { closed: true });
    const id = (submitted.json as { id: string }).id;
    await expect.poll(async () => ((await send(harness, { method: 'GET', path: `/batches/${id}` })).json as { status: string }).status, { timeout: 15_000 }).toBe('completed');
    const asked: [string, string, string, number][] = [
      ['GET', `/batches/${id}`, '/batches/{id}', 200],
      ['GET', '/batches?limit=1', '/batches', 200],
      ['GET', '/batches?limit=0', '/batches', 400],
      ['GET', '/batches/batch_unknown', '/batches/{id}', 404],
      ['POST', `/batches/${id}/cancel`, '/batches/{id}/cancel', 409],
      ['POST', '/batches/batch_unknown/cancel', '/batches/{id}/cancel', 404],
    ];
    for (const [method, address, path, status] of asked) {
      const reply = await send(harness, { method, path: address });
      expect(reply.status, `${method} ${address}`).toBe(status);
      expectDocumented(method.toLowerCase(), path, reply, { closed: status === 200 });
    }
    expectDocumented('post', '/batches', await send(harness, { path: '/batches', body: { endpoint: '/v1/embeddings', requests: [] } }));
  });

  it('a refused key answers as documented', async () => {
    expectDocumented('get', '/key', await send(harness, { path: '/key', key: 'sk-svc-v1-nope' }));
    expectDocumented('post', '/messages', await send(harness, { path: '/messages', key: null, body: { ...chat, max_tokens: 5 } }));
  });

  it('POST /audio/speech answers audio in a documented content type, to the JSON body and to the form', async () => {
    const form = new FormData();
    for (const [name, value] of Object.entries({ model: 'acme/tts', input: 'Hello', response_format: 'wav', voice: 'alloy' })) form.set(name, value);
    const asked = [
      { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ model: 'acme/tts', input: 'Hello', response_format: 'wav' }) },
      { body: form },
    ];
    for (const { headers, body } of asked) {
      const reply = await fetch(`${harness.baseUrl}/audio/speech`, { method: 'POST', headers: { ...headers, authorization: `Bearer ${harness.key}` }, body });
      await reply.arrayBuffer();
      expect(reply.status).toBe(200);
      const response = documentedResponse('post', '/audio/speech', reply);
      expect(Object.keys(response.content ?? {})).toContain(reply.headers.get('content-type'));
    }
  });
});
