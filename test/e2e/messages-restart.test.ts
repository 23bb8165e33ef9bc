import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';
import type { MessagesErrorBody } from './messages-client.js';

/** A restart while a messages stream is open: past the drain grace it ends with the overload class. */
let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [{ id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=400;tps=40' }] }],
    settings: { drainGraceMs: 50 },
  });
});

afterAll(async () => harness.sim.close());

async function untilUpstreamSaw(count: number): Promise<void> {
  for (let poll = 0; poll < 400 && harness.sim.requests().length < count; poll += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function errorEvent(text: string): MessagesErrorBody | undefined {
  const frame = text.split('\n\n').find((candidate) => candidate.startsWith('event: error'));
  const data = frame?.split('\n').find((line) => line.startsWith('data: '))?.slice('data: '.length);
  return data === undefined ? undefined : JSON.parse(data) as MessagesErrorBody;
}

describe('restart on the messages route', () => {
  it('an open stream ends with an overloaded_error event saying to retry in 5 seconds', async () => {
    const body = { model: 'acme/slow', max_tokens: 1000, stream: true, messages: [{ role: 'user', content: 'A long story' }] };
    const response = await fetch(`${harness.baseUrl}/messages`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const reader = response.body?.getReader();
    const first = await reader?.read();
    let text = new TextDecoder().decode(first?.value);
    expect(text).toContain('event: message_start');
    await untilUpstreamSaw(1);

    const closing = harness.gateway.close();
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      text += new TextDecoder().decode(next.value);
    }
    await closing;

    const event = errorEvent(text);
    expect(event?.type).toBe('error');
    expect(event?.error).toMatchObject({ type: 'overloaded_error', code: 503, metadata: { error_type: 'server' } });
    expect(event?.error.message).toMatch(/retry in 5 seconds/);
    expect(text).not.toContain('event: message_stop');
  });
});
