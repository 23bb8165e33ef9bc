import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }] });
});

afterAll(async () => harness.close());

function responses(body: Record<string, unknown>) {
  return send(harness, { path: '/responses', body: { model: 'acme/chat', input: 'Hi', ...body } });
}

describe('stateful members are refused before inference, streamed or not (rule 4)', () => {
  it.each([
    ['previous_response_id', { previous_response_id: 'resp_123' }, false],
    ['previous_response_id', { previous_response_id: 'resp_123' }, true],
    ['background', { background: true }, false],
    ['background', { background: true }, true],
  ])('%s (stream %s) gives 400 with error.code 400, error_type invalid_request, naming it', async (field, body, stream) => {
    const before = harness.sim.requests().length;
    const money = await accountMoney(harness);
    const reply = await responses({ ...body, stream });
    expect(reply.status).toBe(400);
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.code).toBe(400);
    expect(error.metadata.error_type).toBe('invalid_request');
    expect(error.metadata.field).toBe(field);
    expect(error.message.startsWith(field)).toBe(true);
    expect(harness.sim.requests().length).toBe(before);
    expect(await accountMoney(harness)).toEqual(money);
  });

  it('the official client raises a BadRequestError for previous_response_id', async () => {
    const attempt = harness.client.responses.create({ model: 'acme/chat', input: 'Hi', previous_response_id: 'resp_123' });
    await expect(attempt).rejects.toBeInstanceOf(OpenAI.BadRequestError);
    const streamed = harness.client.responses.create({ model: 'acme/chat', input: 'Hi', background: true, stream: true });
    await expect(streamed).rejects.toMatchObject({ status: 400 });
  });

  it('previous_response_id null and background false or null are accepted', async () => {
    expect((await responses({ previous_response_id: null, background: false })).status).toBe(200);
    expect((await responses({ background: null, stream: true })).status).toBe(200);
  });
});

describe('other bad input is 400 naming the field', () => {
  it.each([
    ['input missing', { input: undefined }, 'input'],
    ['an unknown input item type', { input: [{ type: 'item_reference', id: 'x' }] }, 'input[0].type'],
    ['an unknown user content block', { input: [{ role: 'user', content: [{ type: 'input_video', url: 'x' }] }] }, 'input[0].content[0].type'],
    ['a message with an unknown role', { input: [{ role: 'tool', content: 'x' }] }, 'input[0].role'],
    ['a function_call without call_id', { input: [{ type: 'function_call', name: 'f', arguments: '{}' }] }, 'input[0].call_id'],
    ['temperature above 2', { temperature: 2.5 }, 'temperature'],
    ['top_p above 1', { top_p: 1.5 }, 'top_p'],
    ['max_output_tokens 0', { max_output_tokens: 0 }, 'max_output_tokens'],
    ['a function tool with a bad name', { tools: [{ type: 'function', name: 'bad name' }] }, 'tools[0].name'],
    ['tool_choice of another kind', { tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'web_search_preview' } }, 'tool_choice'],
    ['prompt_cache_key over 256 characters', { prompt_cache_key: 'k'.repeat(257) }, 'prompt_cache_key'],
    ['user over 256 characters', { user: 'u'.repeat(257) }, 'user'],
    ['models over 20', { models: Array.from({ length: 21 }, (_, i) => `acme/m${i}`) }, 'models'],
    ['X-Session-Id is checked too', { headersOnly: true }, 'X-Session-Id'],
    ['call-ready tool dispatch', { stream_options: { include_tool_dispatch: true } }, 'stream_options.include_tool_dispatch'],
    ['reasoning.effort as an array', { reasoning: { effort: [] } }, 'reasoning.effort'],
    ['reasoning.effort as a number', { reasoning: { effort: 5 } }, 'reasoning.effort'],
    ['reasoning.effort as an object', { reasoning: { effort: {} } }, 'reasoning.effort'],
    ['tool_choice naming an undeclared function', { tools: [{ type: 'function', name: 'f' }], tool_choice: { type: 'function', name: 'g' } }, 'tool_choice.name'],
    ['tool_choice required with no tools', { tool_choice: 'required' }, 'tool_choice'],
  ])('%s', async (_label, body, field) => {
    const reply = 'headersOnly' in body
      ? await send(harness, { path: '/responses', headers: { 'x-session-id': 's'.repeat(257) }, body: { model: 'acme/chat', input: 'Hi' } })
      : await responses(body);
    expect(reply.status).toBe(400);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.metadata.error_type).toBe('invalid_request');
    expect(error.message.startsWith(field)).toBe(true);
  });

  it('a streamed request refused for bad input answers in the dialect body', async () => {
    const reply = await responses({ stream: true, temperature: 9 });
    expect(reply.status).toBe(400);
    expect(reply.json).toMatchObject({ error: { type: 'invalid_request_error', code: null, metadata: { error_type: 'invalid_request' } } });
  });

  it('a streamed request with a bad key is refused before its stream in the dialect body', async () => {
    const reply = await send(harness, { path: '/responses', key: 'sk-nope', body: { model: 'acme/chat', input: 'Hi', stream: true } });
    expect(reply.status).toBe(401);
    expect(reply.json).toMatchObject({ error: { type: 'invalid_request_error', code: null, metadata: { error_type: 'authentication' } } });
    const plain = await send(harness, { path: '/responses', key: 'sk-nope', body: { model: 'acme/chat', input: 'Hi' } });
    expect(plain.json).toMatchObject({ error: { code: 401, metadata: { error_type: 'authentication' } } });
  });

  it('an unknown model is 404', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/nowhere', input: 'Hi' } });
    expect(reply.status).toBe(404);
  });
});

describe('a refusal a repeat cannot change tells the client not to repeat it', () => {
  it('a json_schema text.format no endpoint declares (a coding agent titling its thread): 503 with x-should-retry false, and the client with retries asks once', async () => {
    let sent = 0;
    const retrying = new OpenAI({
      baseURL: harness.baseUrl,
      apiKey: harness.key,
      maxRetries: 2,
      fetch: async (url, init) => {
        sent += 1;
        return fetch(url, init);
      },
    });
    const title = {
      name: 'codex_output_schema',
      strict: true,
      schema: { type: 'object', properties: { title: { type: 'string' } }, required: ['title'], additionalProperties: false },
    };
    const attempt = retrying.responses.create({ model: 'acme/chat', input: 'Title this thread', stream: true, store: false, text: { format: { type: 'json_schema', ...title } } });
    const error = await attempt.then(() => undefined, (reason: unknown) => reason);
    expect(error).toBeInstanceOf(OpenAI.APIError);
    expect((error as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((error as InstanceType<typeof OpenAI.APIError>).headers?.get('x-should-retry')).toBe('false');
    expect(sent).toBe(1);
  });
});
