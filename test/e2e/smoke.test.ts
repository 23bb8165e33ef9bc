import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }],
  });
});

afterAll(async () => harness.close());

describe('chat completions through the official client', () => {
  it('answers a non-streamed completion with the exact cost', async () => {
    const reply = await harness.client.chat.completions.create({
      model: 'acme/chat',
      messages: [{ role: 'user', content: 'Hello [[sim tokens=5]]' }],
    });
    expect(reply.id).toMatch(/^gen-/);
    expect(reply.choices[0]?.message.content).toBeTruthy();
    const usage = reply.usage as unknown as { prompt_tokens: number; completion_tokens: number; cost: number };
    expect(usage.completion_tokens).toBe(5);
    const expected = (usage.prompt_tokens * 1 + 5 * 2) / 1_000_000;
    expect(usage.cost).toBeCloseTo(expected, 15);
  });
});
