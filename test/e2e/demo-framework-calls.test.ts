import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import type { ChatCompletionCreateParamsNonStreaming } from 'openai/resources/chat/completions';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';

let gateway: RunningGateway;
let client: OpenAI;

beforeAll(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-demo-'));
  gateway = await startGateway({ port: 0, databaseUrl: 'sqlite::memory:', demoKeyFile: join(dir, 'demo-key.txt'), logger: pino({ level: 'silent' }), watch: false });
  client = new OpenAI({ baseURL: `${gateway.url}/api/v1`, apiKey: gateway.demoKey?.key ?? '', maxRetries: 0 });
});

afterAll(async () => gateway.close());

describe('framework calls are served by the demo chat models', () => {
  it('structured output by tool calling (a forced tool, parallel_tool_calls false) is answered with the call', async () => {
    const reply = await client.chat.completions.create({
      model: 'switchyard/demo-chat',
      messages: [{ role: 'user', content: 'Extract the person' }],
      tools: [{ type: 'function', function: { name: 'Person', description: 'A person', parameters: { type: 'object', properties: { name: { type: 'string' } } } } }],
      tool_choice: { type: 'function', function: { name: 'Person' } },
      parallel_tool_calls: false,
      temperature: 0,
    });
    expect(reply.choices[0]?.message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'Person' } });
  });

  it('penalties, sampling cut-offs, logit_bias and logprobs are sent to the simulator and judged honoured', async () => {
    const settings = { frequency_penalty: 0.5, presence_penalty: 0.2, repetition_penalty: 1.1, top_k: 40, min_p: 0.05, logit_bias: { '50256': -100 } };
    const stream = await client.chat.completions.create({
      model: 'switchyard/demo-fast', messages: [{ role: 'user', content: 'Hello' }], stream: true, logprobs: true, top_logprobs: 2, ...settings,
    } as unknown as OpenAI.ChatCompletionCreateParamsStreaming);
    let honoured: unknown;
    for await (const chunk of stream) honoured = (chunk as { honoured?: unknown }).honoured ?? honoured;
    const upstream = gateway.simulator?.requests().at(-1)?.body as Record<string, unknown>;
    expect(upstream).toMatchObject({ ...settings, logprobs: true, top_logprobs: 2 });
    expect(honoured).toMatchObject({ frequency_penalty: true, presence_penalty: true, repetition_penalty: true, top_k: true, min_p: true, logit_bias: true });
  });

  it('a non-streamed call with every setting on demo-think is answered', async () => {
    const reply = await client.chat.completions.create({
      model: 'switchyard/demo-think', messages: [{ role: 'user', content: 'Hello' }], frequency_penalty: 0.1, top_k: 10, parallel_tool_calls: false,
      tools: [{ type: 'function', function: { name: 'lookup', parameters: { type: 'object', properties: {} } } }],
    } as ChatCompletionCreateParamsNonStreaming);
    expect(reply.choices[0]?.finish_reason).toBeTruthy();
  });
});
