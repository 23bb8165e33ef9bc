import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startHarness, type ErrorEnvelope, type Harness, type RawReply } from './harness.js';

const USER = [{ role: 'user', content: 'Hi' }];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }],
  });
});

afterAll(async () => harness.close());

function chat(body: Record<string, unknown>): Promise<RawReply> {
  return send(harness, { path: '/chat/completions', body: { model: 'acme/chat', messages: USER, ...body } });
}

function envelope(reply: RawReply): ErrorEnvelope['error'] {
  return (reply.json as ErrorEnvelope).error;
}

function lastUpstreamBody(): Record<string, unknown> {
  const last = harness.sim.requests().at(-1);
  return last?.body as Record<string, unknown>;
}

describe('bodies the gateway cannot read', () => {
  it('a body over 8 MB is refused with 413 payload_too_large and the generation id', async () => {
    const content = 'x'.repeat(8 * 1024 * 1024 + 1024);
    const reply = await send(harness, {
      path: '/chat/completions',
      rawBody: JSON.stringify({ model: 'acme/chat', messages: [{ role: 'user', content }] }),
    });
    expect(reply.status).toBe(413);
    expect(envelope(reply).code).toBe(413);
    expect(envelope(reply).metadata.error_type).toBe('payload_too_large');
    expect(envelope(reply).message).toBe('body: larger than the 8 MiB (8388608-byte) limit');
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
  });

  it('malformed JSON is refused with 400 invalid_request and the generation id', async () => {
    const reply = await send(harness, { path: '/chat/completions', rawBody: '{"model": "acme/chat", "messages": [' });
    expect(reply.status).toBe(400);
    expect(envelope(reply).code).toBe(400);
    expect(envelope(reply).metadata.error_type).toBe('invalid_request');
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
  });
});

describe('parameters of the wrong type or out of range give 400 naming the field', () => {
  it.each([
    ['temperature 3', { temperature: 3 }, 'temperature'],
    ['temperature as a string', { temperature: 'hot' }, 'temperature'],
    ['top_p 0', { top_p: 0 }, 'top_p'],
    ['top_p above 1', { top_p: 1.5 }, 'top_p'],
    ['max_tokens 0', { max_tokens: 0 }, 'max_tokens'],
    ['max_tokens above 1,048,576', { max_tokens: 1_048_577 }, 'max_tokens'],
    ['max_tokens not an integer', { max_tokens: 2.5 }, 'max_tokens'],
    ['stop with 9 entries', { stop: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i'] }, 'stop'],
    ['a tool name with a space', { tools: [{ type: 'function', function: { name: 'look up' } }] }, 'tools[0].function.name'],
    ['messages []', { messages: [] }, 'messages'],
    ['messages missing', { messages: undefined }, 'messages'],
    ['a message with an unknown role', { messages: [{ role: 'robot', content: 'Hi' }] }, 'messages[0].role'],
    ['n 2', { n: 2 }, 'n'],
    ['stream not a boolean', { stream: 'yes' }, 'stream'],
    ['store true', { store: true }, 'store'],
    ['route neither fallback nor sort', { route: 'fastest' }, 'route'],
    ['an unknown plugin id', { plugins: [{ id: 'web' }] }, 'plugins[0].id'],
    ['user over 256 characters', { user: 'u'.repeat(257) }, 'user'],
    ['an unknown member inside provider', { provider: { fastest: true } }, 'provider.fastest'],
    ['more than 20 fallback models', { models: Array.from({ length: 21 }, (_, i) => `acme/m${i}`) }, 'models'],
    ['a file part naming neither file_id nor file_data', { messages: [{ role: 'user', content: [{ type: 'file', file: {} }] }] }, 'messages[0].content[0].file'],
    ['a tool whose parameters are not an object', { tools: [{ type: 'function', function: { name: 'look', parameters: 5 } }] }, 'tools[0].function.parameters'],
    ['tool_choice naming an undeclared function', {
      tools: [{ type: 'function', function: { name: 'look', parameters: {} } }],
      tool_choice: { type: 'function', function: { name: 'missing' } },
    }, 'tool_choice.function.name'],
    ['tool_choice required with no tools', { tool_choice: 'required' }, 'tool_choice'],
  ])('%s', async (_name, body, field) => {
    harness.sim.clearRequests();
    const reply = await chat(body);
    expect(reply.status).toBe(400);
    const error = envelope(reply);
    expect(error.metadata.error_type).toBe('invalid_request');
    expect(error.message).toContain(field);
    expect(reply.headers.get('x-generation-id')).toMatch(/^gen-/);
    expect(harness.sim.requests()).toHaveLength(0);
  });

  it('the limits themselves are accepted (temperature 2, top_p 1, max_tokens 1, stop with 8 entries)', async () => {
    const reply = await chat({ temperature: 2, top_p: 1, max_tokens: 1, stop: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'] });
    expect(reply.status).toBe(200);
    expect(lastUpstreamBody()).toMatchObject({ temperature: 2, top_p: 1, max_tokens: 1 });
  });
});

describe('explicit null reads as absent', () => {
  it('null optional members are accepted and never forwarded upstream', async () => {
    const reply = await chat({ temperature: null, top_p: null, seed: null, stop: null, max_tokens: null, tools: null, user: null });
    expect(reply.status).toBe(200);
    const upstream = lastUpstreamBody();
    for (const member of ['temperature', 'top_p', 'seed', 'stop', 'max_tokens', 'tools', 'user']) {
      expect(upstream).not.toHaveProperty(member);
    }
  });
});

describe('unknown body members', () => {
  it('are accepted and not forwarded upstream', async () => {
    const reply = await chat({ foo_bar: 1, some_vendor_flag: { nested: true } });
    expect(reply.status).toBe(200);
    const upstream = lastUpstreamBody();
    expect(upstream).not.toHaveProperty('foo_bar');
    expect(upstream).not.toHaveProperty('some_vendor_flag');
  });

  it('settings accepted but omitted upstream (top_a, verbosity, include_reasoning) are not forwarded', async () => {
    const reply = await chat({ top_a: 0.5, verbosity: 'low', include_reasoning: true });
    expect(reply.status).toBe(200);
    const upstream = lastUpstreamBody();
    for (const member of ['top_a', 'verbosity', 'include_reasoning']) expect(upstream).not.toHaveProperty(member);
  });
});
