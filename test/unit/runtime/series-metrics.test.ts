import { Counter, Histogram, Registry } from 'prom-client';
import { describe, expect, it } from 'vitest';
import { SeriesCounter, SeriesHistogram } from '../../../src/runtime/series-metrics.js';

const BUCKETS = [0.005, 0.1, 1, 2.5];

describe('series metrics', () => {
  it('write out the same lines as prom-client\'s counter and histogram given the same observations', async () => {
    const theirs = new Registry();
    const ours = new Registry();
    const requests = new Counter({ name: 'requests_total', help: 'Requests, by route and status', labelNames: ['route', 'status'], registers: [theirs] });
    const seriesRequests = new SeriesCounter('requests_total', 'Requests, by route and status', ['route', 'status'], ours);
    const duration = new Histogram({ name: 'duration_seconds', help: 'Time taken', labelNames: ['route', 'provider'], buckets: BUCKETS, registers: [theirs] });
    const seriesDuration = new SeriesHistogram('duration_seconds', 'Time taken', ['route', 'provider'], BUCKETS, ours);
    const untouched = new Counter({ name: 'untouched_total', help: 'Never counted', labelNames: ['code'], registers: [theirs] });
    new SeriesCounter('untouched_total', 'Never counted', ['code'], ours);
    expect(untouched).toBeDefined();

    const counted: Array<[string, string, number]> = [['/a', '200', 1], ['/b', '404', 2], ['/a', '200', 3], ['/a', '500', 1]];
    for (const [route, status, by] of counted) {
      requests.inc({ route, status }, by);
      seriesRequests.inc([route, status], by);
    }
    // on a bound, between bounds, above the last bound, zero, and a second series
    const observed: Array<[string, string, number]> = [['/a', 'p', 0.005], ['/a', 'p', 0.05], ['/a', 'p', 7], ['/a', 'p', 0], ['/b', 'q', 2.5], ['/a', 'p', 1.0000001]];
    for (const [route, provider, value] of observed) {
      duration.observe({ route, provider }, value);
      seriesDuration.observe([route, provider], value);
    }
    const text = await ours.metrics();
    expect(text).toBe(await theirs.metrics());
    expect(text).toContain('requests_total{route="/a",status="200"} 4');
    expect(text).toContain('duration_seconds_bucket{le="1",route="/a",provider="p"} 3');
    expect(text).toContain('duration_seconds_bucket{le="+Inf",route="/a",provider="p"} 5');
  });

  it('keep one series per set of label values, apart however the values could be joined', async () => {
    const registry = new Registry();
    const counter = new SeriesCounter('joined_total', 'Joined', ['a', 'b'], registry);
    counter.inc(['x', 'y']);
    counter.inc(['x', 'y']);
    counter.inc(['x\u0000', 'y']);
    counter.inc(['x', '\u0000y']);
    counter.inc(['x1:', 'y']);
    counter.inc(['x', '1:y']);
    const values = (await counter.get()).values.map((sample) => [sample.labels, sample.value]);
    expect(values).toEqual([
      [{ a: 'x', b: 'y' }, 2],
      [{ a: 'x\u0000', b: 'y' }, 1],
      [{ a: 'x', b: '\u0000y' }, 1],
      [{ a: 'x1:', b: 'y' }, 1],
      [{ a: 'x', b: '1:y' }, 1],
    ]);
  });
});
