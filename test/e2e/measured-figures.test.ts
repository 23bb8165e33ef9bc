import { describe, expect, it } from 'vitest';
import { figuresOnTestClock, type Harness, type ModelSpec } from './harness.js';

/**
 * Figures measured on the gateway's own traffic (spec 02 "Endpoint entry"), and routing that
 * follows them. The figures' clock is the test's: a minute passes when the test says so, and the
 * sync the background task runs every few seconds is run by the test.
 */
const MODELS: ModelSpec[] = [{
  id: 'acme/chat',
  endpoints: [
    // the cheapest, and never used here: first by default, last once the others are measured
    { provider: 'sim-c', upstream_model: 'chat;tokens=20', pricing: { prompt: '0.0000001', completion: '0.0000002' } },
    // quick to its first token, slow after it
    { provider: 'sim-a', upstream_model: 'chat;tokens=20;ttft=5;tps=60' },
    // slow to its first token, fast after it
    { provider: 'sim-b', upstream_model: 'chat;tokens=20;ttft=150;tps=4000' },
  ],
}];

const { clock, start, close, closeMinute, restartableDatabase } = figuresOnTestClock(MODELS, '2025-07-01T12:00:10Z');

/** Streams one answer through the gateway, pinned to `provider` or sorted by `sort`; the serving provider's name. */
async function stream(harness: Harness, provider: { only?: string[]; sort?: string }): Promise<string | null> {
  const response = await fetch(`${harness.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'acme/chat', stream: true, messages: [{ role: 'user', content: 'Count' }], provider }),
  });
  await response.text();
  return response.headers.get('x-provider-name');
}

/** Five streams on each measured endpoint, then the minute closes and the figures sync. */
async function measure(harness: Harness): Promise<void> {
  for (const provider of ['sim-a', 'sim-b']) {
    for (let index = 0; index < 5; index += 1) await stream(harness, { only: [provider] });
  }
  await closeMinute(harness);
}

describe('measured figures', () => {
  it('traffic through the gateway moves the figures, and sort by latency or throughput follows them', async () => {
    const harness = await start();
    expect(await stream(harness, { sort: 'latency' })).toBe('Sim C');
    await measure(harness);
    const quick = harness.gateway.services.state.figuresOf('sim-a/acme/chat');
    const fast = harness.gateway.services.state.figuresOf('sim-b/acme/chat');
    expect(quick.ttft.last30m.samples).toBe(5);
    expect(quick.ttft.last30m.value?.p50).toBeLessThan(fast.ttft.last30m.value?.p50 ?? 0);
    expect(fast.throughput.last30m.value?.p50).toBeGreaterThan(quick.throughput.last30m.value?.p50 ?? Infinity);
    expect(quick.response.last1d.samples).toBe(5);
    // five attempts: uptime stays null, never 0, until ten are counted
    expect(quick.uptime.last5m).toEqual({ value: null, samples: 5 });
    expect(await stream(harness, { sort: 'latency' })).toBe('Sim A');
    expect(await stream(harness, { sort: 'throughput' })).toBe('Sim B');
    expect(await stream(harness, {})).toBe('Sim C');
  });

  it('a restart keeps the figures: the next gateway on the same database routes by them at once', async () => {
    const databaseUrl = await restartableDatabase();
    const before = await start(databaseUrl);
    await measure(before);
    await close(before);
    clock.now += 60_000;
    const after = await start(databaseUrl);
    expect(after.gateway.services.state.figuresOf('sim-a/acme/chat').ttft.last30m.samples).toBe(5);
    expect(await stream(after, { sort: 'latency' })).toBe('Sim A');
    expect(await stream(after, { sort: 'throughput' })).toBe('Sim B');
  });
});
