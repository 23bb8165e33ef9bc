import { describe, expect, it } from 'vitest';
import OpenAI from 'openai';
import { openAiAdapter } from '../../../src/upstream/openai/adapter.js';
import { OpenAiStreamDecoder } from '../../../src/upstream/openai/stream.js';
import { collectReply } from '../../../src/core/collect.js';
import type { CoreEvent } from '../../../src/core/events.js';
import { useSimulator, userMessage } from './sim-session.js';

const sim = useSimulator();

type Completion = OpenAI.Chat.Completions.ChatCompletion;

describe('simulator log-probabilities', () => {
  it('reports none unless the request sets logprobs: true', async () => {
    const reply = await sim.json<Completion>({ model: 'chat;tokens=2', messages: userMessage('hi') });
    expect(reply.choices[0]?.logprobs).toBeNull();
  });

  it('reports each answer token with top_logprobs alternatives, as many as asked', async () => {
    const reply = await sim.json<Completion>({ model: 'chat;tokens=3', messages: userMessage('hi'), logprobs: true, top_logprobs: 2 });
    const content = reply.choices[0]?.logprobs?.content ?? [];
    expect(content.map((entry) => entry.token).join('')).toBe(reply.choices[0]?.message.content);
    for (const entry of content) {
      expect(entry.logprob).toBeCloseTo(Math.log(0.9), 12);
      expect(entry.top_logprobs).toHaveLength(2);
      expect(entry.bytes).toEqual([...Buffer.from(entry.token)]);
    }
  });

  it('answer=WORD and top=T:P script the answer and its first token distribution', async () => {
    const reply = await sim.json<Completion>({ model: 'chat', messages: userMessage('pick [[sim answer=B top=A:0.25,B:0.75]]'), logprobs: true, top_logprobs: 5 });
    const first = reply.choices[0]?.logprobs?.content?.[0];
    expect(reply.choices[0]?.message.content).toBe('B');
    expect(first?.logprob).toBeCloseTo(Math.log(0.75), 12);
    expect(first?.top_logprobs.map((entry) => entry.token)).toEqual(['B', 'A']);
  });

  it('refuses a top distribution with a probability outside (0, 1]', async () => {
    const reply = await sim.chat({ model: 'chat;top=A:1.5', messages: userMessage('x') });
    expect(reply.status).toBe(400);
  });
});

describe('log-probabilities through the OpenAI adapter', () => {
  it('a whole reply becomes one logprobs event the collector keeps', async () => {
    const json = await sim.json({ model: 'chat', messages: userMessage('pick [[sim top=yes:0.6,no:0.4]]'), logprobs: true, top_logprobs: 3 });
    const reply = collectReply(openAiAdapter.decodeReply(json));
    expect(reply.text).toBe('yes');
    expect(reply.logprobs?.[0]?.top.map((entry) => [entry.token, Number(Math.exp(entry.logprob).toFixed(6))])).toEqual([['yes', 0.6], ['no', 0.4]]);
  });

  it('streamed chunks carry each token\'s log-probabilities', async () => {
    const text = await sim.stream({ model: 'chat;tokens=2', messages: userMessage('hi'), logprobs: true, top_logprobs: 1 });
    const decoder = new OpenAiStreamDecoder();
    const events: CoreEvent[] = [];
    for (const block of text.split('\n\n')) {
      const data = block.split('\n').find((line) => line.startsWith('data: '))?.slice(6);
      if (data) events.push(...decoder.frame(data));
    }
    events.push(...decoder.end());
    const reply = collectReply(events);
    expect(reply.logprobs?.map((entry) => entry.token).join('')).toBe(reply.text);
    expect(reply.logprobs?.every((entry) => entry.top.length === 1)).toBe(true);
  });
});
