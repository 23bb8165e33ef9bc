import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { startHarness, type Harness } from './harness.js';

let harness: Harness;
let client: Anthropic;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }],
  });
  client = new Anthropic({ baseURL: `${harness.gateway.url}/api`, apiKey: harness.key, maxRetries: 0 });
});

afterAll(async () => harness.close());

describe('messages reply', () => {
  it('works', async () => {
    const reply = await client.messages.create({ model: 'acme/chat', max_tokens: 100, messages: [{ role: 'user', content: 'Hello [[sim tokens=4 reasoning=3]]' }] });
    console.log(JSON.stringify(reply));
    const stream = client.messages.stream({ model: 'acme/chat', max_tokens: 100, messages: [{ role: 'user', content: 'Hello [[sim tokens=4 reasoning=3 image=2x2]]' }] });
    for await (const event of stream) console.log(JSON.stringify(event));
    console.log(JSON.stringify(await stream.finalMessage()));
    expect(reply.type).toBe('message');
  });
});
