import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type Anthropic from '@anthropic-ai/sdk';
import type { BetaRawMessageStreamEvent } from '@anthropic-ai/sdk/resources/beta/messages/messages';
import { send, startHarness, type Harness } from './harness.js';
import { anthropicClient, lastUpstreamBody } from './messages-client.js';
import { agentRequest, agentTools, MID_CONVERSATION_SYSTEM_BETA } from './messages-agent-request.js';

/** Claude Code and other agents built on the official Anthropic client, as they call the messages route. */
let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
      { id: 'acme/claude', endpoints: [{ provider: 'sim-anthropic', upstream_model: 'claude' }] },
      {
        id: 'acme/structured',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat', pricing: { prompt: '0.0000001', completion: '0.0000001' } },
          { provider: 'sim-b', upstream_model: 'chat', supported_parameters: ['max_tokens', 'structured_outputs'] },
        ],
      },
    ],
  });
  client = anthropicClient(harness);
});

afterAll(async () => harness.close());

type Usage = { input_tokens: number; output_tokens: number; service?: { unreported: string[] } };

/** Reads a raw stream to its end. */
async function drain(stream: AsyncIterable<BetaRawMessageStreamEvent>): Promise<BetaRawMessageStreamEvent[]> {
  const events: BetaRawMessageStreamEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

/** The message a client assembles from raw events: `message_start`'s, with the final delta's verdict and usage laid over. */
function assemble(events: readonly BetaRawMessageStreamEvent[]): { text: string; usage: Usage; honoured: unknown; stopReason: unknown } {
  let usage: Usage = { input_tokens: 0, output_tokens: 0 };
  let text = '';
  let honoured: unknown;
  let stopReason: unknown;
  for (const event of events) {
    if (event.type === 'message_start') usage = { ...(event.message.usage as unknown as Usage) };
    if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') text += event.delta.text;
    if (event.type === 'message_delta') {
      usage = { ...usage, ...(event.usage as unknown as Usage) };
      honoured = (event as unknown as { honoured?: unknown }).honoured;
      stopReason = event.delta.stop_reason;
    }
  }
  return { text, usage, honoured, stopReason };
}

describe("a coding agent's streamed turn (system turn mid-conversation, adaptive thinking, output_config, context_management, 24 cached tools)", () => {
  it('beta.messages.create with stream and the mid-conversation-system beta streams the answer', async () => {
    const message = assemble(await drain(await client.beta.messages.create(agentRequest('acme/chat', 'Now plan [[sim tokens=4]]'))));
    expect(message.text.length).toBeGreaterThan(0);
    expect(message.stopReason).toBe('end_turn');
    expect(message.usage.output_tokens).toBe(4);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.service?.unreported).toEqual([]);
    expect(message.honoured).toEqual({ tools: true, thinking: false, 'output_config.effort': false });
  });

  it('the system turn reaches the model at its place; thinking, output_config, context_management and cache members are not forwarded', async () => {
    await drain(await client.beta.messages.create(agentRequest('acme/chat', 'Now plan [[sim tokens=2]]')));
    const upstream = lastUpstreamBody(harness);
    const roles = (upstream.messages as Array<{ role: string; content: unknown }>).map((message) => message.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'tool', 'system', 'user']);
    expect((upstream.messages as Array<{ content: unknown }>)[4]?.content).toBe('The user switched to plan mode: do not edit files.');
    expect((upstream.tools as unknown[]).length).toBe(24);
    expect(JSON.stringify(upstream.tools)).not.toMatch(/cache_control|defer_loading|eager_input_streaming/);
    for (const member of ['thinking', 'output_config', 'context_management', 'metadata', 'betas']) expect(upstream).not.toHaveProperty(member);
  });

  it('messages.stream with the anthropic-beta header assembles the final message; its last message_delta clears the unreported marker', async () => {
    const { betas: _, ...body } = agentRequest('acme/chat', 'Now plan [[sim tokens=3]]');
    const stream = client.messages.stream(body as unknown as Anthropic.MessageStreamParams, { headers: { 'anthropic-beta': MID_CONVERSATION_SYSTEM_BETA } });
    const deltas: Anthropic.MessageDeltaEvent[] = [];
    stream.on('streamEvent', (event) => {
      if (event.type === 'message_delta') deltas.push(event);
    });
    const final = await stream.finalMessage();
    expect(final.content.filter((block) => block.type === 'text')).toHaveLength(1);
    expect(final.usage.output_tokens).toBe(3);
    expect(final.usage.input_tokens).toBeGreaterThan(0);
    expect(deltas).toHaveLength(1);
    expect((deltas[0]?.usage as unknown as Usage).service).toEqual({ unreported: [] });
  });

  it('over the Anthropic wire the system turn joins the top-level system and the answer streams', async () => {
    const events = await drain(await client.beta.messages.create(agentRequest('acme/claude', 'Now plan [[sim tokens=2]]')));
    expect(assemble(events).usage.output_tokens).toBe(2);
    const upstream = lastUpstreamBody(harness, '/v1/messages');
    expect(JSON.stringify(upstream.system)).toContain('The user switched to plan mode');
    expect((upstream.messages as Array<{ role: string }>).every((message) => message.role !== 'system')).toBe(true);
  });

  it('the same turn not streamed answers a message whose usage names nothing unreported', async () => {
    const { betas: _, stream: __, ...body } = agentRequest('acme/chat', 'Now plan [[sim tokens=2]]');
    const message = await client.messages.create({ ...body, max_tokens: 4096, stream: false } as unknown as Anthropic.MessageCreateParamsNonStreaming, {
      headers: { 'anthropic-beta': MID_CONVERSATION_SYSTEM_BETA },
    });
    expect(message.usage.output_tokens).toBe(2);
    expect(message.usage).not.toHaveProperty('service');
  });

  it('count_tokens counts the system turn and the tools', async () => {
    const { messages, system, tools } = agentRequest('acme/chat', 'Now plan');
    const counted = await client.beta.messages.countTokens({ model: 'acme/chat', messages, system, tools, betas: [MID_CONVERSATION_SYSTEM_BETA] });
    const withoutTurn = await client.beta.messages.countTokens({ model: 'acme/chat', messages: messages.filter((message) => message.role !== 'system'), system, tools });
    const withoutTools = await client.beta.messages.countTokens({ model: 'acme/chat', messages, system });
    expect(counted.input_tokens).toBeGreaterThan(withoutTurn.input_tokens);
    expect(counted.input_tokens).toBeGreaterThan(withoutTools.input_tokens);
  });
});

describe('output_config.format asks for structured output', () => {
  const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

  it('json_schema routes only to an endpoint declaring structured_outputs and travels as response_format', async () => {
    const reply = await send(harness, {
      path: '/messages',
      body: { model: 'acme/structured', max_tokens: 64, messages: [{ role: 'user', content: 'Answer' }], output_config: { format: { type: 'json_schema', schema } } },
    });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-provider-name')).toBe('Sim B');
    expect(lastUpstreamBody(harness).response_format).toEqual({ type: 'json_schema', json_schema: { name: 'output', schema } });
  });

  it('with no endpoint declaring structured_outputs the request is refused 503 before inference', async () => {
    const reply = await send(harness, {
      path: '/messages',
      body: { model: 'acme/chat', max_tokens: 64, messages: [{ role: 'user', content: 'Answer' }], output_config: { format: { type: 'json_schema', schema } } },
    });
    expect(reply.status).toBe(503);
    expect(reply.json).toMatchObject({ type: 'error', error: { type: 'api_error', metadata: { error_type: 'no_route' } } });
  });

  it('every tool of the agent is declared upstream in order', async () => {
    await drain(await client.beta.messages.create(agentRequest('acme/chat', 'Again [[sim tokens=1]]')));
    const names = (lastUpstreamBody(harness).tools as Array<{ function: { name: string } }>).map((tool) => tool.function.name);
    expect(names).toEqual(agentTools().map((tool) => tool.name));
  });
});
