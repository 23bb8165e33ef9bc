import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=3', supported_parameters: ['max_tokens', 'logprobs', 'top_logprobs'] }] }],
  });
});

afterAll(async () => harness.close());

describe('chat log-probabilities', () => {
  it('a reply carries choices[0].logprobs when logprobs is requested', async () => {
    const completion = await harness.client.chat.completions.create({
      model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], logprobs: true, top_logprobs: 2,
    });
    const content = completion.choices[0]?.logprobs?.content ?? [];
    expect(content.map((entry) => entry.token).join('')).toBe(completion.choices[0]?.message.content);
    expect(content[0]?.top_logprobs).toHaveLength(2);
    expect(content[0]?.logprob).toBeCloseTo(Math.log(0.9), 9);
  });

  it('a stream carries each token\'s logprobs, which the client accumulates', async () => {
    const stream = harness.client.chat.completions.stream({
      model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }], logprobs: true, top_logprobs: 1,
    });
    const completion = await stream.finalChatCompletion();
    const content = completion.choices[0]?.logprobs?.content ?? [];
    expect(content.map((entry) => entry.token).join('')).toBe(completion.choices[0]?.message.content);
  });

  it('without logprobs the reply has none', async () => {
    const completion = await harness.client.chat.completions.create({ model: 'acme/chat', messages: [{ role: 'user', content: 'Hi' }] });
    expect(completion.choices[0]?.logprobs ?? null).toBeNull();
  });
});
