import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readSse, send, startHarness, type Harness } from './harness.js';

/** A restart while answers are in flight: past the drain grace they end with the restart 503. */
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

describe('restart', () => {
  it('an open stream ends with an in-band 503 saying to retry in 5 seconds; a whole reply gets the restart 503', async () => {
    const streamed = fetch(`${harness.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/slow', stream: true, messages: [{ role: 'user', content: 'A long story' }] }),
    });
    const response = await streamed;
    const reader = response.body?.getReader();
    const first = await reader?.read();
    expect(new TextDecoder().decode(first?.value)).toContain('data:');
    const whole = send(harness, { path: '/chat/completions', body: { model: 'acme/slow', messages: [{ role: 'user', content: 'A long story' }] } });
    await untilUpstreamSaw(2);

    const closing = harness.gateway.close();
    let text = new TextDecoder().decode(first?.value);
    for (;;) {
      const next = await reader?.read();
      if (!next || next.done) break;
      text += new TextDecoder().decode(next.value);
    }
    const refused = await whole;
    await closing;

    const { data } = readSse(text);
    expect(data.at(-1)).toBe('[DONE]');
    const last = JSON.parse(data.at(-2) ?? '{}') as { error?: { code: number; message: string; metadata: { error_type: string } }; choices: Array<{ finish_reason: string }> };
    expect(last.error?.code).toBe(503);
    expect(last.error?.message).toMatch(/retry in 5 seconds/);
    expect(last.error?.metadata.error_type).toBe('server');
    expect(last.choices[0]?.finish_reason).toBe('error');

    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(refused.headers.get('x-should-retry')).toBe('true');
    expect(refused.json).toMatchObject({ error: { code: 503, message: expect.stringMatching(/retry in 5 seconds/), metadata: { error_type: 'server' } } });
  });
});

describe('the drain', () => {
  it('ends even when a connection never sends a request', async () => {
    const quiet = await startHarness({ models: [{ id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] }], settings: { drainGraceMs: 10 } });
    const idle = connect({ host: '127.0.0.1', port: Number(new URL(quiet.baseUrl).port) });
    await new Promise((resolve) => idle.once('connect', resolve));
    const dropped = new Promise((resolve) => idle.once('close', resolve));
    idle.resume();
    await quiet.gateway.close();
    await dropped;
    await quiet.sim.close();
  });
});
