import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, startHarness, type Harness } from './harness.js';

/**
 * The endpoint listing (`GET /models/{author}/{slug}/endpoints`) shows what the rest of the gateway
 * knows: the figures measured on the gateway's own traffic, the same the router sorts by, and the
 * capability checks' verdicts, the same routing applies. Nothing in it is cached past a change.
 */
interface Percentiles {
  p50: number;
  p75: number;
  p90: number;
  p99: number;
}

type Entry = Record<string, unknown> & {
  provider_slug: string;
  provider_name: string;
  latency_last_30m: Percentiles | null;
  throughput_last_30m: Percentiles | null;
};

async function endpointsOf(harness: Harness, model: string): Promise<Map<string, Entry>> {
  const reply = await send(harness, { path: `/models/${model}/endpoints`, key: null });
  expect(reply.status).toBe(200);
  const { endpoints } = (reply.json as { data: { endpoints: Entry[] } }).data;
  return new Map(endpoints.map((entry) => [entry.provider_slug, entry]));
}

async function chat(harness: Harness, body: Record<string, unknown>): Promise<string | null> {
  const response = await fetch(`${harness.baseUrl}/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'Count' }], ...body }),
  });
  const text = await response.text();
  expect(response.status, text).toBe(200);
  return response.headers.get('x-provider-name');
}

describe('measured figures in the endpoint listing', () => {
  const clock = { now: Date.parse('2025-07-01T12:00:10Z') };
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({
      models: [{
        id: 'acme/measured',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'chat;tokens=20;ttft=5;tps=200' },
          { provider: 'sim-b', upstream_model: 'chat;tokens=20;ttft=40;tps=2000' },
          { provider: 'sim-c', upstream_model: 'chat;tokens=3' },
        ],
      }],
      figures: { now: () => clock.now, syncIntervalMs: 3_600_000 },
    });
  });

  afterAll(async () => harness.close());

  it('before any traffic every figure is null over a scanned, empty window', async () => {
    for (const entry of (await endpointsOf(harness, 'acme/measured')).values()) {
      expect(entry).toMatchObject({
        uptime_last_5m: null, uptime_last_5m_samples: 0, latency_last_30m: null, latency_last_30m_samples: 0,
        ttft_last_30m: null, response_last_30m: null, throughput_last_30m: null, throughput_last_30m_samples: 0,
      });
    }
  });

  it('after traffic, each endpoint shows the figures whose gates its traffic met, and null for the others', async () => {
    for (let index = 0; index < 10; index += 1) await chat(harness, { model: 'acme/measured', stream: true, provider: { only: ['sim-a'] } });
    for (let index = 0; index < 5; index += 1) await chat(harness, { model: 'acme/measured', stream: true, provider: { only: ['sim-b'] } });
    for (let index = 0; index < 10; index += 1) await chat(harness, { model: 'acme/measured', provider: { only: ['sim-c'] } });
    clock.now += 60_000;
    await harness.gateway.services.state.figures.sync();

    const listing = await endpointsOf(harness, 'acme/measured');
    const percentiles = { p50: expect.any(Number), p75: expect.any(Number), p90: expect.any(Number), p99: expect.any(Number) };
    // ten streams: every figure is gated in
    expect(listing.get('sim-a')).toMatchObject({
      uptime_last_5m: 100, uptime_last_5m_samples: 10, uptime_last_1d: 100, uptime_last_1d_samples: 10,
      ttft_last_30m: percentiles, ttft_last_1d: percentiles, latency_last_30m: percentiles, latency_last_30m_samples: 10,
      response_last_30m: percentiles, throughput_last_30m: percentiles, throughput_last_30m_samples: 10, throughput_last_1d_samples: 10,
    });
    expect(listing.get('sim-a')?.latency_last_30m).toEqual(listing.get('sim-a')?.ttft_last_30m);
    // five streams: timings and throughput, but uptime needs ten attempts
    expect(listing.get('sim-b')).toMatchObject({
      uptime_last_5m: null, uptime_last_5m_samples: 5, latency_last_30m: percentiles, latency_last_30m_samples: 5, throughput_last_30m: percentiles,
    });
    // ten whole replies of three tokens: uptime and whole-request time, no first token, no throughput
    expect(listing.get('sim-c')).toMatchObject({
      uptime_last_5m: 100, uptime_last_5m_samples: 10, response_last_30m: percentiles, ttft_last_30m: null, latency_last_30m: null,
      latency_last_30m_samples: 0, throughput_last_30m: null, throughput_last_30m_samples: 0,
    });
  });

  it('the router sorts by the very figures the listing shows', async () => {
    const measured = [...(await endpointsOf(harness, 'acme/measured')).values()];
    const best = (figure: (entry: Entry) => number | undefined, direction: 1 | -1): string | undefined => measured
      .filter((entry) => figure(entry) !== undefined)
      .sort((a, b) => ((figure(a) ?? 0) - (figure(b) ?? 0)) * direction)[0]?.provider_name;
    expect(await chat(harness, { model: 'acme/measured', stream: true, provider: { sort: 'latency' } })).toBe(best((entry) => entry.latency_last_30m?.p50, 1));
    expect(await chat(harness, { model: 'acme/measured', stream: true, provider: { sort: 'throughput' } })).toBe(best((entry) => entry.throughput_last_30m?.p50, -1));
  });
});

describe('capability checks in the endpoint listing', () => {
  const CHAT = ['max_tokens', 'tools', 'tool_choice', 'reasoning'];
  /** Declares tools, two effort levels and pictures; answers prose, never reasons, refuses pictures. */
  const BROKEN = 'chat;prose;refuse_input=image';
  let harness: Harness;

  beforeAll(async () => {
    harness = await startHarness({
      models: [{
        id: 'acme/checked',
        endpoints: [
          { provider: 'sim-a', upstream_model: BROKEN, supported_parameters: CHAT, input_modalities: ['text', 'image'], reasoning: { supported_efforts: ['high', 'low'] } },
          { provider: 'sim-b', upstream_model: 'chat;reasoning=4', supported_parameters: CHAT, input_modalities: ['text', 'image'], reasoning: { supported_efforts: ['high', 'low'] } },
        ],
      }],
    });
  });

  afterAll(async () => harness.close());

  it('before any check nothing is qualified or refuted', async () => {
    const entry = (await endpointsOf(harness, 'acme/checked')).get('sim-a');
    expect(entry?.capability_qualification).toEqual({});
    expect(entry).toMatchObject({ input_modalities: ['text', 'image'], declared_input_modalities: ['text', 'image'], refuted_reasoning_efforts: [] });
  });

  it('after a probe run the failed checks show, the refuted modality and effort levels are taken out, and the other endpoint stays whole', async () => {
    await harness.gateway.checks.runAll();
    const listing = await endpointsOf(harness, 'acme/checked');
    const failed = { passed: false, checked_at: expect.any(String) };
    expect(listing.get('sim-a')).toMatchObject({
      capability_qualification: { tools: failed, 'reasoning_effort:high': failed, 'reasoning_effort:low': failed, 'input:image': failed },
      input_modalities: ['text'],
      declared_input_modalities: ['text', 'image'],
      refuted_reasoning_efforts: ['high', 'low'],
    });
    const passed = { passed: true, checked_at: expect.any(String) };
    expect(listing.get('sim-b')).toMatchObject({
      capability_qualification: { tools: passed, 'reasoning_effort:high': passed, 'reasoning_effort:low': passed, 'input:image': passed },
      input_modalities: ['text', 'image'],
      refuted_reasoning_efforts: [],
    });
  });

  it('once the provider fixes what it serves and the checks pass again, the listing clears', async () => {
    harness.sim.alias(BROKEN, 'chat;reasoning=4');
    try {
      await harness.gateway.checks.runAll();
      const passed = { passed: true, checked_at: expect.any(String) };
      expect((await endpointsOf(harness, 'acme/checked')).get('sim-a')).toMatchObject({
        capability_qualification: { tools: passed, 'reasoning_effort:high': passed, 'reasoning_effort:low': passed, 'input:image': passed },
        input_modalities: ['text', 'image'],
        refuted_reasoning_efforts: [],
      });
    } finally {
      harness.sim.alias(BROKEN, undefined);
    }
  });
});
