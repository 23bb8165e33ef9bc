import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';

let gateway: RunningGateway;
let key: string;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-demo-'));
  gateway = await startGateway({ port: 0, databaseUrl: 'sqlite::memory:', demoKeyFile: join(dir, 'demo-key.txt'), logger: pino({ level: 'silent' }), watch: false });
  key = gateway.demoKey?.key ?? '';
});

afterAll(async () => gateway.close());

describe('the embedded demo serves a model over the Anthropic Messages wire', () => {
  it('a chat completion with a thinking budget reaches the bundled simulator as a Messages request and reasons', async () => {
    const client = new OpenAI({ baseURL: `${gateway.url}/api/v1`, apiKey: key, maxRetries: 0 });
    const reply = await client.chat.completions.create({
      model: 'switchyard/demo-messages', max_tokens: 3000, reasoning: { max_tokens: 1024 }, messages: [{ role: 'user', content: 'Hello' }],
    } as ChatCompletionCreateParamsNonStreaming);
    const message = reply.choices[0]?.message as { content: string; reasoning?: string };
    expect(message.content).toBeTruthy();
    expect(message.reasoning).toBeTruthy();
    const upstream = gateway.simulator?.requests().at(-1);
    expect(upstream?.path).toBe('/v1/messages');
    expect(upstream?.body).toMatchObject({ max_tokens: 3000, thinking: { type: 'enabled', budget_tokens: 1024 } });
  });

  it('the official Anthropic client streams from it through the messages dialect', async () => {
    const client = new Anthropic({ baseURL: `${gateway.url}/api`, apiKey: key, maxRetries: 0 });
    const message = await client.messages.stream({ model: 'switchyard/demo-messages', max_tokens: 200, messages: [{ role: 'user', content: 'Hello' }] }).finalMessage();
    expect(message.content.some((block) => block.type === 'text' && block.text.length > 0)).toBe(true);
    expect(message.stop_reason).toBe('end_turn');
  });
});
