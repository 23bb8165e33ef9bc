import { describe, expect, it } from 'vitest';
import { MemoryOverrunCounter } from '../../../src/stats/overrun-counter.js';

describe('MemoryOverrunCounter', () => {
  it('counts overruns and sums what went uncollected per endpoint, exactly, ordered by endpoint id', () => {
    const counter = new MemoryOverrunCounter();
    expect(counter.read()).toEqual([]);
    counter.record('sim-b/acme/chat', 4_000_000_000_000_000_000_001n);
    counter.record('sim-a/acme/chat', 7n);
    counter.record('sim-b/acme/chat', 2n);
    expect(counter.read()).toEqual([
      { endpointId: 'sim-a/acme/chat', count: 1, uncollectedUnits: 7n },
      { endpointId: 'sim-b/acme/chat', count: 2, uncollectedUnits: 4_000_000_000_000_000_000_003n },
    ]);
  });

  it('refuses a negative amount, counting nothing', () => {
    const counter = new MemoryOverrunCounter();
    expect(() => counter.record('sim-a/acme/chat', -1n)).toThrow(RangeError);
    expect(counter.read()).toEqual([]);
  });
});
