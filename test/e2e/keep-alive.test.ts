import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse, send, startHarness, type Harness } from './harness.js';

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;ttft=400' }] }],
    settings: { keepAliveMs: 100 },
  });
});

afterAll(async () => harness.close());

describe('stream keep-alive', () => {
  it('a slow first token is preceded by comment lines, and the stream still completes', async () => {
    const reply = await send(harness, {
      path: '/chat/completions',
      body: { model: 'acme/slow', stream: true, messages: [{ role: 'user', content: 'Take your time [[sim tokens=3]]' }] },
    });
    expect(reply.status).toBe(200);
    const { lines, data } = readSse(reply.text);
    const firstData = lines.findIndex((line) => line.startsWith('data:'));
    const firstComment = lines.findIndex((line) => line.startsWith(':'));
    expect(firstComment).toBeGreaterThanOrEqual(0);
    expect(firstComment).toBeLessThan(firstData);
    expect(data.at(-1)).toBe('[DONE]');
  });

  it('the official client ignores the keep-alive comments', async () => {
    const stream = await harness.client.chat.completions.create({
      model: 'acme/slow',
      stream: true,
      messages: [{ role: 'user', content: 'Take your time [[sim tokens=3]]' }],
    });
    let text = '';
    for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? '';
    expect(text).toBe('Hello from the');
  });
});
