import { PerformanceObserver, constants } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, test } from 'vitest';
import { collectYoungGeneration } from '../../../src/catalogue/young-collection.js';

describe('collecting the young generation between batches of a reload', () => {
  test('runs a minor collection now, and leaves no collector reachable from the global scope', async () => {
    const kinds: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) kinds.push((entry as unknown as { detail: { kind: number } }).detail.kind);
    });
    observer.observe({ entryTypes: ['gc'] });
    try {
      const before = kinds.length;
      collectYoungGeneration();
      collectYoungGeneration();
      // the entries are delivered on a later turn
      await sleep(20);
      expect(kinds.slice(before).filter((kind) => kind === constants.NODE_PERFORMANCE_GC_MINOR).length).toBeGreaterThanOrEqual(2);
    } finally {
      observer.disconnect();
    }
    expect('gc' in globalThis).toBe(false);
  });
});
