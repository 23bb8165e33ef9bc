import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=4' }] },
      { id: 'acme/quiet', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2;no_usage' }] },
      {
        id: 'acme/tuned',
        endpoints: [{
          provider: 'sim-b',
          upstream_model: 'chat;tokens=2',
          supported_parameters: ['max_tokens', 'temperature', 'top_p', 'reasoning', 'response_format'],
        }],
      },
      {
        id: 'acme/mixed',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;tokens=2', supported_parameters: ['max_tokens', 'response_format'] },
          { provider: 'sim-b', upstream_model: 'chat;tokens=2', supported_parameters: ['max_tokens', 'response_format', 'structured_outputs'] },
        ],
      },
      { id: 'acme/picture', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2;image=2x2', output_modalities: ['text', 'image'] }] },
    ],
  });
});

afterAll(async () => harness.close());

function lastUpstream(): { body: Record<string, unknown>; headers: Record<string, string> } {
  const last = harness.sim.requests().at(-1);
  return { body: last?.body as Record<string, unknown>, headers: last?.headers ?? {} };
}

describe('a non-streamed response', () => {
  it('is a completed response object with the answer text, its usage and the generation id', async () => {
    const { data: response, response: raw } = await harness.client.responses
      .create({ model: 'acme/chat', input: 'Hello there' })
      .withResponse();
    expect(response.object).toBe('response');
    expect(response.status).toBe('completed');
    expect(response.model).toBe('acme/chat');
    expect(response.output_text).toBe('Hello from the provider');
    const generationId = raw.headers.get('x-generation-id') ?? '';
    expect(generationId).toMatch(/^gen-/);
    expect(response.id).toBe(`resp_${generationId.slice(4)}`);
    expect(raw.headers.get('x-provider-name')).toBe('Sim A');
    const message = response.output[0];
    expect(message?.type).toBe('message');
    if (message?.type !== 'message') return;
    expect(message.role).toBe('assistant');
    expect(message.status).toBe('completed');
    expect(message.content).toEqual([{ type: 'output_text', text: 'Hello from the provider', annotations: [] }]);
    const usage = response.usage;
    expect(usage?.output_tokens).toBe(4);
    expect(usage?.total_tokens).toBe((usage?.input_tokens ?? 0) + 4);
    expect(usage).not.toHaveProperty('service');
    expect(response.incomplete_details).toBeNull();
    expect(response.error).toBeNull();
  });

  it('carries the compatibility placeholders exactly, and neither provider nor usage.cost', async () => {
    const reply = await send(harness, {
      path: '/responses',
      body: {
        model: 'acme/tuned',
        input: 'Hi',
        instructions: 'Be brief',
        temperature: 0.5,
        top_p: 0.9,
        max_output_tokens: 50,
        tool_choice: 'none',
        parallel_tool_calls: false,
        metadata: { ticket: '42' },
        reasoning: { effort: 'low' },
      },
    });
    expect(reply.status).toBe(200);
    const body = reply.json as Record<string, unknown>;
    expect(body).toMatchObject({
      parallel_tool_calls: true,
      tool_choice: 'auto',
      tools: [],
      metadata: {},
      instructions: null,
      max_output_tokens: null,
      previous_response_id: null,
      reasoning: null,
      temperature: null,
      top_p: null,
    });
    expect(body).not.toHaveProperty('provider');
    expect(body.usage).not.toHaveProperty('cost');
    expect(Object.keys(body.usage as object).sort()).toEqual(['input_tokens', 'output_tokens', 'total_tokens']);
  });

  it('ends incomplete with reason max_output_tokens when the ceiling cut the answer, and sends the ceiling as max_tokens', async () => {
    const response = await harness.client.responses.create({ model: 'acme/chat', input: 'Tell me more', max_output_tokens: 2 });
    expect(response.status).toBe('incomplete');
    expect(response.incomplete_details).toEqual({ reason: 'max_output_tokens' });
    expect(response.output_text).toBe('Hello from');
    expect(response.output[0]?.type === 'message' ? response.output[0].status : undefined).toBe('incomplete');
    expect(lastUpstream().body.max_tokens).toBe(2);
  });

  it('names every count nothing measured in usage.service.unreported, sent as 0', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/quiet', input: 'Hi' } });
    expect(reply.status).toBe(200);
    expect((reply.json as { usage: unknown }).usage).toEqual({
      input_tokens: 0,
      output_tokens: 0,
      total_tokens: 0,
      service: { unreported: ['input_tokens', 'output_tokens', 'total_tokens'] },
    });
  });

  it('a generated picture is an output_image part of the message', async () => {
    const response = await harness.client.responses.create({ model: 'acme/picture', input: 'Draw' });
    const message = response.output[0];
    const content = message?.type === 'message' ? (message.content as unknown as Array<Record<string, unknown>>) : [];
    expect(content[0]).toMatchObject({ type: 'output_text', text: 'Hello from' });
    expect(content[1]?.type).toBe('output_image');
    expect(String(content[1]?.image_url)).toMatch(/^data:image\/png;base64,/);
  });
});

describe('what reaches the endpoint', () => {
  it('instructions are prepended as system content; system and developer items become system content', async () => {
    await harness.client.responses.create({
      model: 'acme/chat',
      instructions: 'Answer in French',
      input: [
        { role: 'developer', content: 'Be terse' },
        { type: 'message', role: 'system', content: [{ type: 'input_text', text: 'No emoji' }] },
        { role: 'user', content: [{ type: 'input_text', text: 'Bonjour' }] },
      ],
    });
    expect(lastUpstream().body.messages).toEqual([
      { role: 'system', content: 'Answer in French' },
      { role: 'system', content: 'Be terse' },
      { role: 'system', content: 'No emoji' },
      { role: 'user', content: [{ type: 'text', text: 'Bonjour' }] },
    ]);
  });

  it('the full conversation travels each turn, earlier assistant turns included', async () => {
    const first = await harness.client.responses.create({ model: 'acme/chat', input: 'First question' });
    await harness.client.responses.create({
      model: 'acme/chat',
      input: [{ role: 'user', content: 'First question' }, ...first.output, { role: 'user', content: 'Second question' }] as never,
    });
    expect(lastUpstream().body.messages).toEqual([
      { role: 'user', content: 'First question' },
      { role: 'assistant', content: 'Hello from the provider' },
      { role: 'user', content: 'Second question' },
    ]);
  });

  it('temperature, top_p and a recognised effort are forwarded; store, include, metadata and user are not', async () => {
    await send(harness, {
      path: '/responses',
      body: {
        model: 'acme/tuned',
        input: 'Hi',
        temperature: 0.3,
        top_p: 0.8,
        reasoning: { effort: 'low', summary: 'auto' },
        store: true,
        include: ['reasoning.encrypted_content'],
        metadata: { ticket: '42' },
        user: 'user-7',
      },
    });
    const { body } = lastUpstream();
    expect(body).toMatchObject({ temperature: 0.3, top_p: 0.8, reasoning_effort: 'low' });
    for (const member of ['store', 'include', 'metadata', 'user', 'reasoning', 'instructions', 'input']) expect(body).not.toHaveProperty(member);
  });

  it('an unrecognised reasoning effort is not forwarded', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/tuned', input: 'Hi', reasoning: { effort: 'extreme' } } });
    expect(reply.status).toBe(200);
    expect(lastUpstream().body).not.toHaveProperty('reasoning_effort');
  });

  it('metadata is not retained on the generation record', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/chat', input: 'Hi', metadata: { ticket: '42' }, store: null, include: null } });
    expect(reply.status).toBe(200);
    const id = reply.headers.get('x-generation-id') ?? '';
    const record = await send(harness, { path: `/generation?id=${id}` });
    expect((record.json as { data: { metadata: unknown } }).data.metadata).toBeNull();
  });

  it('prompt_cache_key outranks X-Session-Id and reaches the endpoint as x-session-id', async () => {
    const headers = { 'x-session-id': 'header-session' };
    await send(harness, { path: '/responses', headers, body: { model: 'acme/chat', input: 'Hi', prompt_cache_key: 'cache-key' } });
    expect(lastUpstream().headers['x-session-id']).toBe('cache-key');
    expect(lastUpstream().body).not.toHaveProperty('prompt_cache_key');
    await send(harness, { path: '/responses', headers, body: { model: 'acme/chat', input: 'Hi' } });
    expect(lastUpstream().headers['x-session-id']).toBe('header-session');
  });
});

describe('text.format', () => {
  it('json_schema routes only to an endpoint declaring structured_outputs and sends the schema as response_format', async () => {
    const schema = { type: 'object', properties: { city: { type: 'string' } } };
    for (let i = 0; i < 3; i += 1) {
      const reply = await send(harness, {
        path: '/responses',
        body: { model: 'acme/mixed', input: 'Hi', text: { format: { type: 'json_schema', name: 'place', schema, strict: true } } },
      });
      expect(reply.headers.get('x-provider-name')).toBe('Sim B');
      expect(lastUpstream().body.response_format).toEqual({ type: 'json_schema', json_schema: { name: 'place', schema, strict: true } });
    }
  });

  it('json_schema with no endpoint declaring structured_outputs is 503 before inference', async () => {
    const before = harness.sim.requests().length;
    const reply = await send(harness, {
      path: '/responses',
      body: { model: 'acme/chat', input: 'Hi', text: { format: { type: 'json_schema', name: 'place', schema: {} } } },
    });
    expect(reply.status).toBe(503);
    expect((reply.json as ErrorEnvelope).error.message).toMatch(/structured_outputs/);
    expect(harness.sim.requests().length).toBe(before);
  });

  it('json_object asks for response_format json_object', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/mixed', input: 'Hi', text: { format: { type: 'json_object' } } } });
    expect(reply.status).toBe(200);
    expect(lastUpstream().body.response_format).toEqual({ type: 'json_object' });
  });

  it('any other format type is 400 naming text.format.type', async () => {
    const reply = await send(harness, { path: '/responses', body: { model: 'acme/chat', input: 'Hi', text: { format: { type: 'grammar' } } } });
    expect(reply.status).toBe(400);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.metadata.error_type).toBe('invalid_request');
    expect(error.message).toMatch(/^text\.format\.type/);
  });
});
