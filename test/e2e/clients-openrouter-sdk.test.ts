import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OpenRouter } from '@openrouter/sdk';
import type { ChatResult, ChatStreamChunk } from '@openrouter/sdk/models';
import { startHarness, type Harness } from './harness.js';

/** The client written for hosted marketplaces, pointed at the gateway. */
let harness: Harness;
let client: OpenRouter;

const WEATHER = {
  type: 'function' as const,
  function: {
    name: 'get_weather',
    description: 'Weather for a city',
    parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
  },
};

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
      {
        id: 'acme/thinker',
        endpoints: [{ provider: 'sim-b', upstream_model: 'chat;reasoning=6;encrypted', supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'reasoning'] }],
      },
      {
        id: 'acme/painter',
        endpoints: [{ provider: 'sim-c', upstream_model: 'chat;image=4x3', output_modalities: ['text', 'image'], pricing: { prompt: '0.000001', completion: '0.000002', image_megapixel: '0.04' } }],
      },
    ],
    settings: { keepAliveMs: 50 },
  });
  client = new OpenRouter({ serverURL: harness.baseUrl, apiKey: harness.key, retryConfig: { strategy: 'none' } });
});

afterAll(async () => harness.close());

async function whole(chatRequest: Record<string, unknown>): Promise<ChatResult> {
  const result = await client.chat.send({ chatRequest: { ...chatRequest, stream: false } as never });
  return result as ChatResult;
}

async function chunks(chatRequest: Record<string, unknown>): Promise<ChatStreamChunk[]> {
  const stream = await client.chat.send({ chatRequest: { ...chatRequest, stream: true } as never });
  const out: ChatStreamChunk[] = [];
  for await (const chunk of stream as AsyncIterable<ChatStreamChunk>) out.push(chunk);
  return out;
}

describe('@openrouter/sdk chat.send, not streamed', () => {
  it('reads the answer, the finish reason and the usage with its cost', async () => {
    const reply = await whole({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hello [[sim tokens=5]]' }] });
    expect(reply.id).toMatch(/^gen-/);
    expect(reply.model).toBe('acme/chat');
    expect(reply.choices[0]?.message.content).toBe('Hello from the provider simulator');
    expect(reply.choices[0]?.finishReason).toBe('stop');
    expect(reply.usage?.completionTokens).toBe(5);
    expect(reply.usage?.cost).toBeGreaterThan(0);
  });

  it('reads a tool call handed back to the client', async () => {
    const reply = await whole({
      model: 'acme/chat',
      tools: [WEATHER],
      toolChoice: 'required',
      messages: [{ role: 'user', content: 'Weather in Paris today [[sim tools]]' }],
    });
    const choice = reply.choices[0];
    expect(choice?.finishReason).toBe('tool_calls');
    const call = choice?.message.toolCalls?.[0];
    expect(call?.function.name).toBe('get_weather');
    expect(JSON.parse(call?.function.arguments ?? '')).toEqual({ query: 'Weather in Paris' });
  });

  it('reads reasoning and its details, encrypted entry included', async () => {
    const reply = await whole({
      model: 'acme/thinker',
      reasoning: { effort: 'high' },
      messages: [{ role: 'user', content: 'Think first [[sim tokens=3]]' }],
    });
    const message = reply.choices[0]?.message;
    expect(message?.reasoning).toBeTruthy();
    expect(message?.reasoningDetails?.map((detail) => detail.type)).toEqual(['reasoning.text', 'reasoning.encrypted']);
    expect(reply.usage?.completionTokensDetails?.reasoningTokens).toBe(6);
  });

  it('reads a generated picture as a data URL beside the text', async () => {
    const reply = await whole({ model: 'acme/painter', modalities: ['image', 'text'], messages: [{ role: 'user', content: 'Draw [[sim tokens=2]]' }] });
    const url = reply.choices[0]?.message.images?.[0]?.imageUrl.url;
    expect(url).toMatch(/^data:image\/png;base64,/);
  });
});

describe('@openrouter/sdk chat.send, other reply shapes', () => {
  it('reads a refusal', async () => {
    const reply = await whole({ model: 'acme/chat', messages: [{ role: 'user', content: 'No [[sim refusal]]' }] });
    expect(reply.choices[0]?.message.refusal).toBe("I can't help with that.");
  });

  it('reads a picture the endpoint hosts, passed through by URL', async () => {
    const reply = await whole({ model: 'acme/chat', messages: [{ role: 'user', content: 'Draw [[sim tokens=2 image_url=https://cdn.example/p.png]]' }] });
    expect(reply.choices[0]?.message.images?.[0]?.imageUrl.url).toBe('https://cdn.example/p.png');
  });

  it('reads a finish reason the provider named its own way', async () => {
    const reply = await whole({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hi [[sim tokens=2 native_finish=end_turn]]' }] });
    expect(reply.choices[0]?.finishReason).toBe('stop');
  });

  it('ignores the keep-alive comments of a slow stream', async () => {
    const received = await chunks({ model: 'acme/chat', messages: [{ role: 'user', content: 'Slow [[sim tokens=3 ttft=300]]' }] });
    expect(received.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello from the');
  });
});

describe('@openrouter/sdk chat.send, streamed', () => {
  it('chunks concatenate to the answer and the last one carries the usage with its cost', async () => {
    const received = await chunks({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hello [[sim tokens=6]]' }] });
    const text = received.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('');
    expect(text).toBe('Hello from the provider simulator,');
    expect(received.map((chunk) => chunk.choices[0]?.finishReason).filter(Boolean)).toEqual(['stop']);
    const last = received.at(-1);
    expect(last?.choices).toEqual([]);
    expect(last?.usage?.completionTokens).toBe(6);
    expect(last?.usage?.cost).toBeGreaterThan(0);
  });

  it('tool call fragments concatenate to the whole call', async () => {
    const received = await chunks({
      model: 'acme/chat',
      tools: [WEATHER],
      messages: [{ role: 'user', content: 'Weather in Paris today [[sim tools]]' }],
    });
    const fragments = received.flatMap((chunk) => chunk.choices[0]?.delta.toolCalls ?? []);
    expect(fragments[0]?.function?.name).toBe('get_weather');
    const args = fragments.map((fragment) => fragment.function?.arguments ?? '').join('');
    expect(JSON.parse(args)).toEqual({ query: 'Weather in Paris' });
    expect(received.map((chunk) => chunk.choices[0]?.finishReason).filter(Boolean)).toEqual(['tool_calls']);
  });

  it('reasoning arrives in fragments before the answer', async () => {
    const received = await chunks({
      model: 'acme/thinker',
      reasoning: { effort: 'high' },
      messages: [{ role: 'user', content: 'Think first [[sim tokens=3]]' }],
    });
    const reasoning = received.map((chunk) => chunk.choices[0]?.delta.reasoning ?? '').join('');
    expect(reasoning).toBeTruthy();
    const details = received.flatMap((chunk) => chunk.choices[0]?.delta.reasoningDetails ?? []);
    expect(details.some((detail) => detail.type === 'reasoning.encrypted')).toBe(true);
    expect(received.map((chunk) => chunk.choices[0]?.delta.content ?? '').join('')).toBe('Hello from the');
  });

  it('an in-band failure after commit arrives as a chunk with an error member', async () => {
    const received = await chunks({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hello there [[sim fail_after=2]]' }] });
    const last = received.at(-1);
    expect(last?.error?.code).toBeTypeOf('number');
    expect(last?.error?.message).toBeTruthy();
    expect(last?.choices[0]?.finishReason).toBe('error');
  });
});
