import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_PARAMETERS, send, startHarness, type ErrorEnvelope, type Harness, type RawReply } from './harness.js';

/** The chat request surface over real HTTP: ranges, what reaches the endpoint, and what never does. */
const USER = [{ role: 'user', content: 'Hi' }];
const WIDE = [
  ...DEFAULT_PARAMETERS, 'top_k', 'min_p', 'repetition_penalty', 'frequency_penalty', 'presence_penalty', 'logit_bias',
  'logprobs', 'top_logprobs', 'response_format', 'structured_outputs', 'parallel_tool_calls', 'reasoning',
];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/chat',
        endpoints: [{
          provider: 'sim-a',
          upstream_model: 'chat;tokens=2',
          supported_parameters: WIDE,
          passthrough_parameters: { guided_choice: { type: 'string' } },
          input_modalities: ['text', 'image'],
          output_modalities: ['text', 'image', 'audio'],
        }],
      },
      {
        id: 'acme/pair',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;tokens=3', pricing: { prompt: '0.0000001', completion: '0.0000001' } },
          { provider: 'sim-b', upstream_model: 'chat;tokens=4' },
        ],
      },
      { id: 'acme/small', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=2', context_length: 400 }] },
      {
        id: 'acme/picky',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;tokens=2;refuse_param=temperature', pricing: { prompt: '0.0000001', completion: '0.0000001' } },
          { provider: 'sim-b', upstream_model: 'chat;tokens=3' },
        ],
      },
      { id: 'acme/refusing', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2;refuse_param=temperature' }] },
      { id: 'acme/plain', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=2' }] },
      { id: 'acme/newer', endpoints: [{ provider: 'sim-c', upstream_model: 'chat;tokens=2', max_tokens_parameter: 'max_completion_tokens' }] },
      {
        id: 'acme/listener',
        endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2', input_modalities: ['text', 'audio'], input_sources: { audio: ['base64'] } }],
      },
      { id: 'qwen/qwen3-8b', family: 'qwen3', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] },
      { id: 'qwen/qwen3-32b', family: 'qwen3', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;tokens=2' }] },
    ],
  });
});

afterAll(async () => harness.close());

beforeEach(() => harness.sim.clearRequests());

function chat(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<RawReply> {
  return send(harness, { path: '/chat/completions', body: { model: 'acme/chat', messages: USER, ...body }, headers });
}

function envelope(reply: RawReply): ErrorEnvelope['error'] {
  return (reply.json as ErrorEnvelope).error;
}

function upstream(): { headers: Record<string, string>; body: Record<string, unknown> } {
  const last = harness.sim.requests().at(-1);
  if (!last) throw new Error('the endpoint received nothing');
  return { headers: last.headers, body: last.body as Record<string, unknown> };
}

async function served(body: Record<string, unknown>, headers: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const reply = await chat(body, headers);
  expect(reply.status, reply.text).toBe(200);
  return upstream().body;
}

const tool = (name: string) => ({ type: 'function', function: { name, parameters: { type: 'object' } } });

describe('every range is checked: out of range gives 400 naming the field, and nothing is sent', () => {
  it.each([
    ['top_k -2', { top_k: -2 }, 'top_k'],
    ['min_p above 1', { min_p: 1.5 }, 'min_p'],
    ['top_a above 1', { top_a: 2 }, 'top_a'],
    ['frequency_penalty above 2', { frequency_penalty: 2.5 }, 'frequency_penalty'],
    ['presence_penalty below -2', { presence_penalty: -3 }, 'presence_penalty'],
    ['repetition_penalty 0', { repetition_penalty: 0 }, 'repetition_penalty'],
    ['repetition_penalty above 2', { repetition_penalty: 2.1 }, 'repetition_penalty'],
    ['seed not an integer', { seed: 1.5 }, 'seed'],
    ['max_completion_tokens 0', { max_completion_tokens: 0 }, 'max_completion_tokens'],
    ['logit_bias above 100', { logit_bias: { 42: 101 } }, 'logit_bias'],
    ['logit_bias of a value that is not a number', { logit_bias: { 42: 'y' } }, 'logit_bias[42]'],
    ['logit_bias keyed by something other than a token id', { logit_bias: { x: 'y' } }, 'logit_bias: key "x" is not a token id'],
    ['top_logprobs 21', { top_logprobs: 21 }, 'top_logprobs'],
    ['response_format of an unknown type', { response_format: { type: 'xml' } }, 'response_format'],
    ['tools beyond 1,536', { tools: Array.from({ length: 1537 }, (_, i) => tool(`t${i}`)) }, 'tools'],
    ['a tool name over 128 characters', { tools: [tool('x'.repeat(129))] }, 'tools[0].function.name'],
    ['tool_choice of an unknown word', { tool_choice: 'sometimes' }, 'tool_choice'],
    ['reasoning.effort of an unknown level', { reasoning: { effort: 'extreme' } }, 'reasoning.effort'],
    ['reasoning_effort of an unknown level', { reasoning_effort: 'extreme' }, 'reasoning_effort'],
    ['verbosity of an unknown level', { verbosity: 'max' }, 'verbosity'],
    ['modalities naming video', { modalities: ['video'] }, 'modalities[0]'],
    ['audio without a format', { modalities: ['audio'], audio: { voice: 'alloy' } }, 'audio'],
    ['audio without a voice', { modalities: ['audio'], audio: { format: 'wav' } }, 'audio'],
    ['audio in an unknown format', { modalities: ['audio'], audio: { voice: 'alloy', format: 'ogg' } }, 'audio.format'],
    ['audio output without the audio member', { modalities: ['text', 'audio'] }, 'audio'],
    ['session_id over 256 characters', { session_id: 's'.repeat(257) }, 'session_id'],
    ['prompt_cache_key over 256 characters', { prompt_cache_key: 'k'.repeat(257) }, 'prompt_cache_key'],
    ['a file part naming both file_id and file_data', {
      messages: [{ role: 'user', content: [{ type: 'file', file: { file_id: 'file-1', file_data: 'data:application/pdf;base64,AAAA' } }] }],
    }, 'messages[0].content[0].file'],
    ['provider.sort of an unknown kind', { provider: { sort: 'fastest' } }, 'provider.sort'],
    ['provider.data_collection of an unknown value', { provider: { data_collection: 'maybe' } }, 'provider.data_collection'],
    ['an unknown transform', { transforms: ['summarise'] }, 'transforms[0]'],
  ])('%s', async (_name, body, field) => {
    const reply = await chat(body);
    expect(reply.status, reply.text).toBe(400);
    expect(envelope(reply).metadata.error_type).toBe('invalid_request');
    expect(envelope(reply).message).toContain(field);
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('an unknown plugin id is refused naming it', async () => {
    const reply = await chat({ plugins: [{ id: 'context-compression' }, { id: 'web-search' }] });
    expect(reply.status).toBe(400);
    expect(envelope(reply).message).toContain('plugins[1].id');
    expect(envelope(reply).message).toContain('web-search');
  });

  it('an X-Session-Id header over 256 characters is refused naming it', async () => {
    const reply = await chat({}, { 'x-session-id': 'h'.repeat(257) });
    expect(reply.status).toBe(400);
    expect(envelope(reply).message).toContain('X-Session-Id');
  });

  it('the edges of each range are accepted', async () => {
    const body = await served({
      top_k: -1, min_p: 1, top_a: 0, frequency_penalty: -2, presence_penalty: 2, repetition_penalty: 2,
      logit_bias: { 42: -100 }, top_logprobs: 20, logprobs: true, max_completion_tokens: 1_048_576,
      user: 'u'.repeat(256), session_id: 's'.repeat(256), n: 1, store: false,
      tools: Array.from({ length: 1536 }, (_, i) => tool(`t${i}`)),
    });
    expect(body).toMatchObject({ top_k: -1, min_p: 1, frequency_penalty: -2, presence_penalty: 2, repetition_penalty: 2, top_logprobs: 20 });
    expect(body.tools).toHaveLength(1536);
  });
});

describe('what reaches the endpoint', () => {
  it('sampling settings the endpoint declares are forwarded under their own names', async () => {
    const body = await served({
      temperature: 0.3, top_p: 0.9, seed: 7, stop: ['END'], frequency_penalty: 0.5, presence_penalty: -0.5,
      logit_bias: { 50256: -100 }, logprobs: true, top_logprobs: 3, parallel_tool_calls: false, tools: [tool('lookup')],
      tool_choice: 'auto', response_format: { type: 'json_object' }, user: 'end-user-1',
    });
    expect(body).toMatchObject({
      temperature: 0.3, top_p: 0.9, seed: 7, stop: ['END'], frequency_penalty: 0.5, presence_penalty: -0.5,
      logit_bias: { 50256: -100 }, logprobs: true, top_logprobs: 3, parallel_tool_calls: false, tool_choice: 'auto',
      response_format: { type: 'json_object' }, user: 'end-user-1',
    });
  });

  it('modalities, audio and image_config reach the endpoint as sent', async () => {
    const media = {
      modalities: ['text', 'audio'], audio: { voice: 'alloy', format: 'mp3' },
      image_config: { aspect_ratio: '16:9', size: '1024x576', n: 1 },
    };
    expect(await served(media)).toMatchObject(media);
  });

  it('top_k, min_p, repetition_penalty and enable_thinking are sent only where declared', async () => {
    const soft = { top_k: 40, min_p: 0.05, repetition_penalty: 1.1 };
    const thinking = await served({ model: 'acme/newer', enable_thinking: true });
    expect(thinking).not.toHaveProperty('enable_thinking');
    expect(await served(soft)).toMatchObject(soft);
    const plain = await served({ model: 'acme/plain', ...soft });
    for (const name of Object.keys(soft)) expect(plain).not.toHaveProperty(name);
  });

  it('max_tokens and max_completion_tokens are one ceiling, sent under the name the endpoint declares', async () => {
    expect(await served({ max_tokens: 50 })).toMatchObject({ max_tokens: 50 });
    const declared = await served({ model: 'acme/newer', max_tokens: 50 });
    expect(declared).toMatchObject({ max_completion_tokens: 50 });
    expect(declared).not.toHaveProperty('max_tokens');
    const both = await served({ max_tokens: 80, max_completion_tokens: 60 });
    expect(both).toMatchObject({ max_tokens: 60 });
    expect(both).not.toHaveProperty('max_completion_tokens');
  });

  it('reasoning.effort becomes reasoning_effort; enabled, max_tokens and exclude are not forwarded', async () => {
    const body = await served({ reasoning: { effort: 'low', max_tokens: 300, exclude: true, enabled: true } });
    expect(body.reasoning_effort).toBe('low');
    expect(body).not.toHaveProperty('reasoning');
  });

  it('reasoning_effort wins over reasoning.effort', async () => {
    expect((await served({ reasoning: { effort: 'low' }, reasoning_effort: 'high' })).reasoning_effort).toBe('high');
  });

  it('markers and settings the service consumes are never forwarded', async () => {
    const body = await served({
      structured_outputs: false, include_reasoning: true, top_a: 0.2, verbosity: 'high', usage: { include: true },
      transforms: [], prompt_cache_key: 'cache-1', store: false, n: 1, metadata: { team: 'search' }, route: 'fallback',
      provider: { sort: 'price' }, stream_options: { include_usage: false },
    });
    for (const member of [
      'structured_outputs', 'include_reasoning', 'top_a', 'verbosity', 'usage', 'transforms', 'prompt_cache_key', 'store', 'n',
      'metadata', 'route', 'provider', 'stream_options', 'session_id', 'models',
    ]) {
      expect(body, member).not.toHaveProperty(member);
    }
  });

  it('a streamed request always asks the endpoint for usage, whatever the caller said', async () => {
    const reply = await chat({ stream: true, stream_options: { include_usage: false } });
    expect(reply.status).toBe(200);
    expect(upstream().body.stream_options).toEqual({ include_usage: true });
    const frames = reply.text.split('\n').filter((line) => line.startsWith('data: {'));
    expect(JSON.parse(frames.at(-1)?.slice(6) ?? '{}')).toHaveProperty('usage.cost');
  });

  it('explicit nulls read as absent, at the top level and inside option objects, and are never forwarded', async () => {
    const body = await served({
      reasoning: { effort: null, max_tokens: null }, provider: { only: null, sort: null }, response_format: null,
      tool_choice: null, stream_options: null, modalities: null, audio: null, session_id: null, logit_bias: null,
      messages: [{ role: 'user', content: 'Hi', name: null }],
    });
    for (const member of ['reasoning', 'reasoning_effort', 'response_format', 'tool_choice', 'stream_options', 'modalities', 'audio', 'logit_bias']) {
      expect(body, member).not.toHaveProperty(member);
    }
    expect(body.messages).toEqual([{ role: 'user', content: 'Hi' }]);
  });

  it('provider.options of the serving provider reach it unchanged; others are not read', async () => {
    const body = await served({ provider: { options: { 'sim-a': { guided_choice: 'yes' }, 'sim-z': { anything: 1 } } } });
    expect(body.guided_choice).toBe('yes');
    expect(body).not.toHaveProperty('anything');
  });

  it('an undeclared provider.options name is refused naming it', async () => {
    const reply = await chat({ provider: { options: { 'sim-a': { temperature_boost: 2 } } } });
    expect(reply.status).toBe(400);
    expect(envelope(reply).message).toContain('provider.options.sim-a.temperature_boost');
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('input_audio is handed to an endpoint taking inline bytes as an audio_url data URL', async () => {
    const body = await served({
      model: 'acme/listener',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Transcribe' }, { type: 'input_audio', input_audio: { data: 'UklGRg==', format: 'wav' } }] }],
    });
    const parts = (body.messages as Array<{ content: unknown[] }>)[0]?.content;
    expect(parts?.[1]).toEqual({ type: 'audio_url', audio_url: { url: 'data:audio/wav;base64,UklGRg==' } });
  });

  it('every message role and content part is accepted and handed on', async () => {
    const messages = [
      { role: 'system', content: 'Be brief', name: 'policy' },
      { role: 'developer', content: 'Answer in English' },
      { role: 'user', content: [{ type: 'text', text: 'Look' }, { type: 'image_url', image_url: { url: 'https://img.example/a.png', detail: 'auto' } }] },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
      { role: 'assistant', content: 'It is sunny', reasoning: 'checked', reasoning_details: [{ type: 'reasoning.text', text: 'checked', index: 0 }] },
      { role: 'user', content: 'Thanks' },
    ];
    const reply = await chat({ messages, tools: [tool('lookup')] });
    expect(reply.status, reply.text).toBe(200);
    const sent = upstream().body.messages as Array<Record<string, unknown>>;
    expect(sent.map((message) => message.role)).toEqual(['system', 'developer', 'user', 'assistant', 'tool', 'assistant', 'user']);
    expect(sent[2]?.content).toEqual(messages[2]?.content);
    expect(sent[5]?.reasoning_details).toEqual([{ type: 'reasoning.text', text: 'checked', index: 0 }]);
  });
});

describe('ceiling and window', () => {
  it('a ceiling the window cannot hold beside the prompt is trimmed to fit, never refused', async () => {
    const body = await served({ model: 'acme/small', max_tokens: 5000 });
    const ceiling = Number(body.max_tokens);
    expect(ceiling).toBeLessThan(400);
    expect(ceiling).toBeGreaterThan(300);
  });

  it('middle-out drops middle turns, keeping the system prompt, the first turn and the last, until the prompt fits', async () => {
    const filler = 'lorem ipsum dolor sit amet '.repeat(12);
    const messages = [
      { role: 'system', content: 'Be brief' },
      ...Array.from({ length: 12 }, (_, i) => ({ role: i % 2 === 0 ? 'user' : 'assistant', content: `turn ${i} ${filler}` })),
      { role: 'user', content: 'And finally?' },
    ];
    const refused = await chat({ model: 'acme/small', messages });
    expect(refused.status).toBe(503);
    const body = await served({ model: 'acme/small', messages, max_tokens: 50, transforms: ['middle-out'] });
    const sent = (body.messages as Array<{ content: string }>).map((message) => message.content);
    expect(sent.length).toBeLessThan(messages.length);
    expect(sent[0]).toBe('Be brief');
    expect(sent[1]).toMatch(/^turn 0 /);
    expect(sent.at(-1)).toBe('And finally?');
  });
});

describe('an endpoint rejecting the request', () => {
  it('is failed over: the next endpoint serves', async () => {
    const reply = await chat({ model: 'acme/picky', temperature: 0.5 });
    expect(reply.status).toBe(200);
    expect(harness.sim.requests().map((request) => (request.body as { model: string }).model)).toEqual([
      'chat;tokens=2;refuse_param=temperature',
      'chat;tokens=3',
    ]);
  });

  it('when no other can serve, is a 400 provider_error carrying the provider diagnostics', async () => {
    const reply = await chat({ model: 'acme/refusing', temperature: 0.5 });
    expect(reply.status).toBe(400);
    const error = envelope(reply);
    expect(error.metadata).toMatchObject({ error_type: 'provider_error', provider_name: 'Sim A', provider_status: 400, provider_code: 'unsupported_parameter' });
    expect(String(error.metadata.provider_message)).toContain("'temperature'");
    expect(String(error.metadata.raw)).toContain('unsupported_parameter');
  });
});

describe('session affinity and attribution', () => {
  it('the resolved session id reaches the endpoint as x-session-id: session_id, then prompt_cache_key, then the header', async () => {
    await served({ session_id: 'from-body', prompt_cache_key: 'from-key' }, { 'x-session-id': 'from-header' });
    expect(upstream().headers['x-session-id']).toBe('from-body');
    await served({ prompt_cache_key: 'from-key' }, { 'x-session-id': 'from-header' });
    expect(upstream().headers['x-session-id']).toBe('from-key');
    await served({}, { 'x-session-id': 'from-header' });
    expect(upstream().headers['x-session-id']).toBe('from-header');
    await served({});
    expect(upstream().headers).not.toHaveProperty('x-session-id');
  });

  it('the same session id prefers the endpoint that served the conversation', async () => {
    const first = await served({ model: 'acme/pair', session_id: 'conversation-7', provider: { order: ['sim-b'] } });
    expect(first.model).toBe('chat;tokens=4');
    for (let turn = 0; turn < 2; turn += 1) {
      expect((await served({ model: 'acme/pair', session_id: 'conversation-7' })).model).toBe('chat;tokens=4');
    }
    expect((await served({ model: 'acme/pair', session_id: 'conversation-8' })).model).toBe('chat;tokens=3');
    expect((await served({ model: 'acme/pair' }, { 'x-session-id': 'conversation-7' })).model).toBe('chat;tokens=4');
  });

  it('attribution headers and metadata are recorded on the generation', async () => {
    const reply = await chat({ metadata: { team: 'search', ticket: 42 } }, {
      'x-partner-title': 'Partner App', 'x-title': 'Plain Title', 'http-referer': 'https://partner.example',
    });
    const record = await send(harness, { path: `/generation?id=${reply.headers.get('x-generation-id') ?? ''}` });
    expect(record.json).toMatchObject({
      data: { app_title: 'Partner App', app_referer: 'https://partner.example', metadata: { team: 'search', ticket: 42 } },
    });
    const fallback = await chat({}, { 'x-partner-title': '', 'x-title': 'Plain Title' });
    const second = await send(harness, { path: `/generation?id=${fallback.headers.get('x-generation-id') ?? ''}` });
    expect(second.json).toMatchObject({ data: { app_title: 'Plain Title' } });
  });
});

describe('refusals before any provider is contacted', () => {
  it('a setting no endpoint declares is a 503 no_route itemising each endpoint', async () => {
    const reply = await chat({ model: 'acme/plain', logprobs: true });
    expect(reply.status).toBe(503);
    const error = envelope(reply);
    expect(error.metadata.error_type).toBe('no_route');
    expect(error.metadata.rejections).toEqual([
      { endpoint: 'sim-b/acme/plain', provider: 'sim-b', model: 'acme/plain', reason: 'does not declare logprobs' },
    ]);
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('an unknown id naming a served family is a 404 listing the family variants', async () => {
    const reply = await chat({ model: 'qwen/qwen3' });
    expect(reply.status).toBe(404);
    expect(envelope(reply).metadata.family_variants).toEqual(['qwen/qwen3-8b', 'qwen/qwen3-32b']);
  });

  it('an output modality no endpoint produces is a 503 naming it', async () => {
    const reply = await chat({ model: 'acme/plain', modalities: ['image'] });
    expect(reply.status).toBe(503);
    expect(envelope(reply).message).toContain('image');
  });

  it('more than 16 stored files in one request is refused', async () => {
    const files = Array.from({ length: 17 }, (_, i) => ({ type: 'file', file: { file_id: `file-${i}` } }));
    const reply = await chat({ messages: [{ role: 'user', content: files }] });
    expect(reply.status).toBe(400);
    expect(envelope(reply).message).toContain('messages');
  });
});
