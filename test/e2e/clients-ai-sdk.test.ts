import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateText, streamText, tool, type LanguageModel } from 'ai';
import { createOpenRouter } from '@openrouter/ai-sdk-provider';
import { z } from 'zod';
import { startHarness, type Harness } from './harness.js';

/** The `ai` SDK with the provider written for hosted marketplaces, pointed at the gateway. */
let harness: Harness;
let model: (id: string) => LanguageModel;

const weather = tool({
  description: 'Weather for a city',
  inputSchema: z.object({ query: z.string() }),
});

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', output_modalities: ['text', 'image'] }] },
      {
        id: 'acme/thinker',
        endpoints: [{ provider: 'sim-b', upstream_model: 'chat;reasoning=6', supported_parameters: ['max_tokens', 'tools', 'tool_choice', 'reasoning'] }],
      },
    ],
    settings: { keepAliveMs: 50 },
  });
  const provider = createOpenRouter({ baseURL: harness.baseUrl, apiKey: harness.key, appName: 'ai-sdk e2e', appUrl: 'https://e2e.example' });
  model = (id) => provider.chat(id);
});

afterAll(async () => harness.close());

describe('ai generateText', () => {
  it('reads the answer, the finish reason and the usage', async () => {
    const result = await generateText({ model: model('acme/chat'), prompt: 'Hello [[sim tokens=5]]', maxRetries: 0 });
    expect(result.text).toBe('Hello from the provider simulator');
    expect(result.finishReason).toBe('stop');
    expect(result.usage.outputTokens).toBe(5);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
    expect(result.response.id).toMatch(/^gen-/);
  });

  it('reads a tool call handed back to the client', async () => {
    const result = await generateText({
      model: model('acme/chat'),
      tools: { get_weather: weather },
      toolChoice: 'required',
      prompt: 'Weather in Paris today [[sim tools]]',
      maxRetries: 0,
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.toolCalls).toHaveLength(1);
    expect(result.toolCalls[0]?.toolName).toBe('get_weather');
    expect(result.toolCalls[0]?.input).toEqual({ query: 'Weather in Paris' });
  });

  it('reads reasoning beside the answer', async () => {
    const result = await generateText({
      model: model('acme/thinker'),
      prompt: 'Think first [[sim tokens=3]]',
      providerOptions: { openrouter: { reasoning: { effort: 'high' } } },
      maxRetries: 0,
    });
    expect(result.reasoningText).toBeTruthy();
    expect(result.text).toBe('Hello from the');
  });

  it('reads cached and reasoning token counts and the exact cost from the provider metadata', async () => {
    const result = await generateText({
      model: model('acme/thinker'),
      prompt: 'Hello there my friend [[sim tokens=3 cached=2]]',
      providerOptions: { openrouter: { reasoning: { effort: 'low' } } },
      maxRetries: 0,
    });
    expect(result.usage.inputTokenDetails.cacheReadTokens).toBe(2);
    expect(result.usage.outputTokenDetails.reasoningTokens).toBe(6);
    const usage = result.providerMetadata?.openrouter?.usage as { cost?: number } | undefined;
    expect(usage?.cost).toBeGreaterThan(0);
  });

  it('reads a generated picture as a file beside the text', async () => {
    const result = await generateText({ model: model('acme/chat'), prompt: 'Draw [[sim tokens=2 image=4x4]]', maxRetries: 0 });
    expect(result.text).toBe('Hello from');
    expect(result.files).toHaveLength(1);
    expect(result.files[0]?.mediaType).toBe('image/png');
  });

  it('surfaces a gateway refusal as an API error with its status', async () => {
    await expect(generateText({ model: model('nobody/nothing'), prompt: 'Hi', maxRetries: 0 })).rejects.toMatchObject({ statusCode: 404 });
  });
});

describe('ai streamText', () => {
  it('streams the answer text and ends with the usage', async () => {
    const result = streamText({ model: model('acme/chat'), prompt: 'Hello [[sim tokens=6]]', maxRetries: 0 });
    let text = '';
    for await (const delta of result.textStream) text += delta;
    expect(text).toBe('Hello from the provider simulator,');
    expect(await result.finishReason).toBe('stop');
    expect((await result.usage).outputTokens).toBe(6);
  });

  it('ignores the keep-alive comments of a slow stream', async () => {
    const result = streamText({ model: model('acme/chat'), prompt: 'Slow [[sim tokens=3 ttft=300]]', maxRetries: 0 });
    expect(await result.text).toBe('Hello from the');
  });

  it('streams a tool call the client can run', async () => {
    const result = streamText({
      model: model('acme/chat'),
      tools: { get_weather: weather },
      prompt: 'Weather in Paris today [[sim tools]]',
      maxRetries: 0,
    });
    const calls = await result.toolCalls;
    expect(calls).toHaveLength(1);
    expect(calls[0]?.toolName).toBe('get_weather');
    expect(calls[0]?.input).toEqual({ query: 'Weather in Paris' });
    expect(await result.finishReason).toBe('tool-calls');
  });

  it('an in-band failure after the stream opened is an error part, and the finish reason is error', async () => {
    const result = streamText({ model: model('acme/chat'), prompt: 'Hello there [[sim fail_after=2]]', maxRetries: 0 });
    const errors: unknown[] = [];
    let text = '';
    for await (const part of result.fullStream) {
      if (part.type === 'error') errors.push(part.error);
      if (part.type === 'text-delta') text += part.text;
    }
    expect(text).toBe('Hello from');
    expect(errors).toHaveLength(1);
    expect(JSON.stringify(errors[0])).toContain('Sim A failed');
    expect(await result.finishReason).toBe('error');
  });

  it('streams reasoning before the answer', async () => {
    const result = streamText({
      model: model('acme/thinker'),
      prompt: 'Think first [[sim tokens=3]]',
      providerOptions: { openrouter: { reasoning: { effort: 'high' } } },
      maxRetries: 0,
    });
    const kinds: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'error') throw part.error;
      kinds.push(part.type);
    }
    expect(await result.reasoningText).toBeTruthy();
    expect(await result.text).toBe('Hello from the');
    expect(kinds.indexOf('reasoning-delta')).toBeLessThan(kinds.indexOf('text-delta'));
  });
});
