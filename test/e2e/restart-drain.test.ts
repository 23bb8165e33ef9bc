import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readSse, startHarness, type ErrorEnvelope, type Harness } from './harness.js';
import { firstAnswer, openRaw, rawExchange, untilAnswered, type RawAnswer } from './raw-connection.js';

/**
 * The restart drain as clients see it (docs/command-line.md, `serve`): the instance keeps accepting
 * connections during the grace period and answers every new request with the restart 503, then
 * closes that connection; requests in flight end as documented; listening stops when nothing is in
 * flight any more or the grace has passed.
 */
const MODELS = [{ id: 'acme/slow', endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=400;tps=40' }] }];

async function untilUpstreamSaw(harness: Harness, count: number): Promise<void> {
  for (let poll = 0; poll < 400 && harness.sim.requests().length < count; poll += 1) {
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function request(harness: Harness, headers: string[] = []): string {
  const body = JSON.stringify({ model: 'acme/slow', messages: [{ role: 'user', content: 'Hi' }] });
  const { host, pathname } = new URL(`${harness.baseUrl}/chat/completions`);
  return [
    `POST ${pathname} HTTP/1.1`, `Host: ${host}`, `Authorization: Bearer ${harness.key}`, 'Content-Type: application/json',
    `Content-Length: ${body.length}`, ...headers, '', body,
  ].join('\r\n');
}

function expectRestart503(answer: RawAnswer): void {
  expect(answer.status).toBe(503);
  expect(answer.headers['retry-after']).toBe('5');
  expect(answer.headers['x-should-retry']).toBe('true');
  expect(answer.headers['connection']).toBe('close');
  const { error } = answer.json as ErrorEnvelope;
  expect(error.code).toBe(503);
  expect(error.metadata.error_type).toBe('provider_overloaded');
  expect(error.message).toMatch(/retry in 5 seconds/);
}

function refusedConnection(harness: Harness): Promise<NodeJS.ErrnoException | undefined> {
  const { hostname, port } = new URL(harness.baseUrl);
  return new Promise((resolve) => {
    const socket = connect({ host: hostname, port: Number(port) });
    socket.once('connect', () => {
      socket.destroy();
      resolve(undefined);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error));
  });
}

describe('the restart drain', () => {
  it('answers new connections and kept-alive ones with the restart 503 while a stream in flight runs out its grace', async () => {
    const harness = await startHarness({ models: MODELS, settings: { drainGraceMs: 1_500 } });
    try {
      const keptAlive = await openRaw(harness.baseUrl);
      keptAlive.write(`GET /api/v1/ HTTP/1.1\r\nHost: ${new URL(harness.baseUrl).host}\r\n\r\n`);
      await untilAnswered(keptAlive);
      expect(firstAnswer(keptAlive.received()).status).toBe(200);

      const response = await fetch(`${harness.baseUrl}/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'acme/slow', stream: true, messages: [{ role: 'user', content: 'A long story' }] }),
      });
      const reader = response.body?.getReader();
      const first = await reader?.read();
      let streamed = new TextDecoder().decode(first?.value);
      await untilUpstreamSaw(harness, 1);

      const closing = harness.gateway.close();

      const fresh = firstAnswer(await rawExchange(harness.baseUrl, request(harness)));
      expectRestart503(fresh);

      const before = keptAlive.received().length;
      keptAlive.write(request(harness));
      const afterIdle = (await keptAlive.closed).slice(before);
      expectRestart503(firstAnswer(afterIdle));
      expect(harness.sim.requests()).toHaveLength(1);

      for (;;) {
        const next = await reader?.read();
        if (!next || next.done) break;
        streamed += new TextDecoder().decode(next.value);
      }
      await closing;
      const { data } = readSse(streamed);
      expect(data.at(-1)).toBe('[DONE]');
      const last = JSON.parse(data.at(-2) ?? '{}') as { error?: ErrorEnvelope['error'] };
      expect(last.error?.code).toBe(503);
      expect(last.error?.metadata.error_type).toBe('server');
      expect(last.error?.message).toMatch(/retry in 5 seconds/);

      expect((await refusedConnection(harness))?.code).toBe('ECONNREFUSED');
    } finally {
      await harness.sim.close();
    }
  });

  it('stops listening as soon as nothing is in flight, without waiting out the grace', async () => {
    const harness = await startHarness({ models: MODELS, settings: { drainGraceMs: 600_000 } });
    try {
      await harness.gateway.close();
      expect((await refusedConnection(harness))?.code).toBe('ECONNREFUSED');
    } finally {
      await harness.sim.close();
    }
  });
});
