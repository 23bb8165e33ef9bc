import { describe, expect, it } from 'vitest';
import type { EndpointSample } from '../../../src/stats/endpoint-sample.js';
import { MeasuredEndpointFigures } from '../../../src/stats/measured-figures.js';

const ENDPOINT = 'alpha/acme/chat';
const START = Date.parse('2025-07-01T12:00:30Z');
const MINUTE = 60_000;

/** Figures on a clock the test moves; samples recorded now land in the minute in progress. */
function figuresAt(start = START) {
  let now = start;
  const figures = new MeasuredEndpointFigures({ now: () => now });
  return {
    figures,
    record(sample: EndpointSample, times = 1) {
      for (let index = 0; index < times; index += 1) figures.record(ENDPOINT, sample);
    },
    async advance(ms: number) {
      now += ms;
      await figures.sync();
    },
  };
}

describe('gates: a figure is null, never 0, until its gate is met', () => {
  it('an endpoint never seen: every window scanned empty (0 samples), every figure null', () => {
    const { figures } = figuresAt();
    const seen = figures.figuresOf('nobody');
    expect(seen.uptime.last5m).toEqual({ value: null, samples: 0 });
    expect(seen.uptime.last7d).toEqual({ value: null, samples: 0 });
    expect(seen.ttft.last30m).toEqual({ value: null, samples: 0 });
    expect(seen.throughput.last1d).toEqual({ value: null, samples: 0 });
    expect(seen.toolCallSuccess1d).toEqual({ value: null, samples: 0 });
    expect(seen.runawayRate1d).toEqual({ value: null, samples: 0 });
    expect(seen.renderTiming).toEqual({ value: null, samples: 0, sizes: 0 });
  });

  it('uptime is null below 10 counted attempts and a percentage from 10 on', async () => {
    const clock = figuresAt();
    clock.record({ ok: true }, 9);
    await clock.advance(MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT).uptime.last5m).toEqual({ value: null, samples: 9 });
    clock.record({ ok: false });
    await clock.advance(MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT).uptime.last5m).toEqual({ value: 90, samples: 10 });
  });

  it('an endpoint that failed every attempt reports 0% once gated: a measured 0, not a missing one', async () => {
    const clock = figuresAt();
    clock.record({ ok: false }, 10);
    await clock.advance(MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT).uptime.last5m).toEqual({ value: 0, samples: 10 });
  });

  it('attempts that say nothing of the endpoint are not counted', async () => {
    const clock = figuresAt();
    clock.record({}, 20);
    await clock.advance(MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT).uptime.last5m).toEqual({ value: null, samples: 0 });
  });

  it('timings are null below 5 samples, then p50/p75/p90/p99 in seconds within the sketch\'s 1%', async () => {
    const clock = figuresAt();
    for (const seconds of [0.1, 0.2, 0.3, 0.4]) clock.record({ ok: true, ttftSeconds: seconds, responseSeconds: seconds * 10 });
    await clock.advance(MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT).ttft.last30m).toEqual({ value: null, samples: 4 });
    clock.record({ ok: true, ttftSeconds: 0.5, responseSeconds: 5 });
    await clock.advance(MINUTE);
    const { ttft, response } = clock.figures.figuresOf(ENDPOINT);
    expect(ttft.last30m.samples).toBe(5);
    expect(ttft.last30m.value?.p50).toBeCloseTo(0.3, 2);
    // a percentile is the sample at rank q × (n − 1), rounded down: p99 of five samples is the fourth
    expect(ttft.last30m.value?.p99).toBeCloseTo(0.4, 2);
    expect(response.last1d.value?.p50).toBeCloseTo(3, 1);
  });

  it('the 30-minute throughput percentiles are floors: whole tokens per second, never above the measured value', async () => {
    const clock = figuresAt();
    clock.record({ ok: true, tokensPerSecond: 87.6 }, 5);
    await clock.advance(MINUTE);
    const { throughput } = clock.figures.figuresOf(ENDPOINT);
    expect(throughput.last30m.value?.p50).toBe(86);
    expect(Number.isInteger(throughput.last30m.value?.p90)).toBe(true);
    expect(throughput.last1d.value?.p50).toBeCloseTo(87.6, 0);
    expect(throughput.last30m.samples).toBe(5);
  });

  it('tool-call success and runaway rate are percentages over the day, null below 10', async () => {
    const clock = figuresAt();
    clock.record({ ok: true, toolCall: true, runaway: false }, 6);
    clock.record({ ok: true, toolCall: false, runaway: true }, 3);
    await clock.advance(MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT).toolCallSuccess1d).toEqual({ value: null, samples: 9 });
    clock.record({ ok: true, toolCall: true, runaway: false });
    await clock.advance(MINUTE);
    const figures = clock.figures.figuresOf(ENDPOINT);
    expect(figures.toolCallSuccess1d).toEqual({ value: 70, samples: 10 });
    expect(figures.runawayRate1d).toEqual({ value: 30, samples: 10 });
  });
});

describe('windows', () => {
  it('the minute in progress is in no window until it closes', async () => {
    const clock = figuresAt();
    clock.record({ ok: true }, 10);
    await clock.advance(1_000);
    expect(clock.figures.figuresOf(ENDPOINT).uptime.last5m.samples).toBe(0);
    await clock.advance(MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT).uptime.last5m.samples).toBe(10);
  });

  it('each window holds what is younger than its length, and the longer ones hold the shorter', async () => {
    const clock = figuresAt();
    clock.record({ ok: false }, 10);
    await clock.advance(6 * MINUTE);
    clock.record({ ok: true }, 10);
    await clock.advance(MINUTE);
    const { uptime } = clock.figures.figuresOf(ENDPOINT);
    expect(uptime.last5m).toEqual({ value: 100, samples: 10 });
    expect(uptime.last30m).toEqual({ value: 50, samples: 20 });
    expect(uptime.last1d).toEqual({ value: 50, samples: 20 });
    expect(uptime.last7d).toEqual({ value: 50, samples: 20 });
  });

  it('minutes rolled into hours still count in the day and the week, and leave the 30 minutes', async () => {
    const clock = figuresAt();
    clock.record({ ok: true, ttftSeconds: 0.2 }, 10);
    await clock.advance(3 * 60 * MINUTE);
    const figures = clock.figures.figuresOf(ENDPOINT);
    expect(figures.uptime.last30m.samples).toBe(0);
    expect(figures.uptime.last1d).toEqual({ value: 100, samples: 10 });
    expect(figures.ttft.last1d.value?.p50).toBeCloseTo(0.2, 2);
    expect(figures.uptime.last7d.samples).toBe(10);
  });

  it('a day later only the week holds the attempts (counts only); after seven days nothing does', async () => {
    const clock = figuresAt();
    clock.record({ ok: true, ttftSeconds: 0.2 }, 10);
    await clock.advance(26 * 60 * MINUTE);
    const dayLater = clock.figures.figuresOf(ENDPOINT);
    expect(dayLater.uptime.last1d.samples).toBe(0);
    expect(dayLater.ttft.last1d).toEqual({ value: null, samples: 0 });
    expect(dayLater.uptime.last7d).toEqual({ value: 100, samples: 10 });
    await clock.advance(7 * 24 * 60 * MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT).uptime.last7d).toEqual({ value: null, samples: 0 });
  });

  it('figures are computed once per sync: the same object until the next one', async () => {
    const clock = figuresAt();
    clock.record({ ok: true }, 10);
    await clock.advance(MINUTE);
    const first = clock.figures.figuresOf(ENDPOINT);
    expect(clock.figures.figuresOf(ENDPOINT)).toBe(first);
    await clock.advance(MINUTE);
    expect(clock.figures.figuresOf(ENDPOINT)).not.toBe(first);
  });
});
