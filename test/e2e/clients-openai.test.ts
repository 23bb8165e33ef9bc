import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APIError } from 'openai';
import { DEFAULT_PARAMETERS, startHarness, type Harness } from './harness.js';

/** Every reply shape of the chat route through the official `openai` client, whole and streamed. */
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', output_modalities: ['text', 'image', 'audio'] }] },
      { id: 'acme/thinker', endpoints: [{ provider: 'sim-b', upstream_model: 'chat;reasoning=4;encrypted', supported_parameters: [...DEFAULT_PARAMETERS, 'reasoning'] }] },
    ],
  });
});

afterAll(async () => harness.close());

/** Members hosted marketplaces add to the OpenAI message, read beside the client's own types. */
interface MarketplaceMessage {
  reasoning?: string;
  reasoning_details?: Array<{ type: string; index: number }>;
  images?: Array<{ type: string; image_url: { url: string } }>;
}

function ask(content: string) {
  return [{ role: 'user' as const, content }];
}

describe('whole replies', () => {
  it('reasoning and reasoning_details ride beside the content', async () => {
    const reply = await harness.client.chat.completions.create({ model: 'acme/thinker', reasoning_effort: 'high', messages: ask('Think [[sim tokens=2]]') });
    const message = reply.choices[0]?.message as unknown as MarketplaceMessage & { content: string };
    expect(message.content).toBe('Hello from');
    expect(message.reasoning).toBe('Let me think this');
    expect(message.reasoning_details?.map((detail) => detail.type)).toEqual(['reasoning.text', 'reasoning.encrypted']);
    expect(reply.usage?.completion_tokens_details?.reasoning_tokens).toBe(4);
  });

  it('a refusal is message.refusal', async () => {
    const reply = await harness.client.chat.completions.create({ model: 'acme/chat', messages: ask('No [[sim refusal]]') });
    expect(reply.choices[0]?.message.refusal).toBe("I can't help with that.");
  });

  it('a picture is message.images beside an empty content when it is the whole answer', async () => {
    const reply = await harness.client.chat.completions.create({ model: 'acme/chat', modalities: ['text'], messages: ask('Draw [[sim image=4x4 image_only]]') });
    const message = reply.choices[0]?.message as unknown as MarketplaceMessage & { content: string };
    expect(message.content).toBe('');
    expect(message.images?.[0]?.image_url.url).toMatch(/^data:image\/png;base64,/);
  });

  it('generated audio is message.audio as the client types it', async () => {
    const reply = await harness.client.chat.completions.create({
      model: 'acme/chat',
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
      messages: ask('Say [[sim tokens=2 audio=1]]'),
    });
    const audio = reply.choices[0]?.message.audio;
    expect(audio?.id).toBeTruthy();
    expect(audio?.transcript).toBe('Hello from');
    expect(audio?.expires_at).toBeTypeOf('number');
    expect(Buffer.from(audio?.data ?? '', 'base64').subarray(0, 4).toString('latin1')).toBe('RIFF');
  });

  it('a refusal before any provider is contacted is an APIError with the status and envelope', async () => {
    const error = await harness.client.chat.completions.create({ model: 'acme/chat', store: true, messages: ask('Hi') }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).status).toBe(400);
    expect((error as APIError).message).toContain('store');
  });
});

describe('streamed replies', () => {
  it('reasoning, then content, then the finish; the stream helper assembles the final completion', async () => {
    const stream = harness.client.chat.completions.stream({ model: 'acme/thinker', messages: ask('Think [[sim tokens=3]]') });
    const reasoning: string[] = [];
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as (MarketplaceMessage & { content?: string }) | undefined;
      if (delta?.reasoning) reasoning.push(delta.reasoning);
    }
    const final = await stream.finalChatCompletion();
    expect(reasoning.join('')).toBe('Let me think this');
    expect(final.choices[0]?.message.content).toBe('Hello from the');
    expect(final.choices[0]?.finish_reason).toBe('stop');
  });

  it('streamed audio fragments and a streamed picture pass through the client', async () => {
    const stream = await harness.client.chat.completions.create({
      model: 'acme/chat',
      stream: true,
      modalities: ['text', 'audio'],
      audio: { voice: 'alloy', format: 'wav' },
      messages: ask('Say [[sim tokens=2 audio=1 image=2x2]]'),
    });
    let transcript = '';
    let images = 0;
    for await (const chunk of stream) {
      const delta = chunk.choices[0]?.delta as (MarketplaceMessage & { audio?: { transcript?: string } }) | undefined;
      transcript += delta?.audio?.transcript ?? '';
      images += delta?.images?.length ?? 0;
    }
    expect(transcript).toBe('Hello from');
    expect(images).toBe(1);
  });

  it('a failure after the stream opened surfaces as an APIError carrying the error member', async () => {
    const stream = await harness.client.chat.completions.create({ model: 'acme/chat', stream: true, messages: ask('Hello there [[sim fail_after=2]]') });
    let text = '';
    const error = await (async () => {
      for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    })().catch((caught: unknown) => caught);
    expect(text).toBe('Hello from');
    expect(error).toBeInstanceOf(APIError);
    expect((error as APIError).message).toMatch(/Sim A/);
  });
});
