import { execFileSync } from 'node:child_process';
import { getHeapSpaceStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { HEAP_GROWING_PERCENT, heapGrowthFlag, releaseStartupMemory } from '../../../src/cli/process-memory.js';

/**
 * A process keeping about 50 MiB (its own 30 and a rolling window of 20 that lives long enough to be
 * promoted) while 160 MiB pass through its old generation: the largest the old generation grew.
 */
const CHURN = `
import { setFlagsFromString, getHeapSpaceStatistics } from 'node:v8';
if (process.argv[1]) setFlagsFromString(process.argv[1]);
const oldSpace = () => getHeapSpaceStatistics().find((space) => space.space_name === 'old_space');
const kept = [];
for (let i = 0; i < 400; i += 1) kept.push(new Array(10_000).fill(i));
const window = [];
let peak = 0;
let passed = 0;
for (let round = 0; round < 40_000; round += 1) {
  window.push(new Array(500).fill(round));
  if (window.length > 5_000) window.shift();
  passed += new Array(500).fill(round).length;
  if (round % 100 === 0) peak = Math.max(peak, oldSpace().space_size);
}
console.log(JSON.stringify({ peakMiB: peak / 2 ** 20, kept: kept.length, passed }));
`;

function oldGenerationPeakMiB(flag: string): number {
  const output = execFileSync(process.execPath, ['--input-type=module', '-e', CHURN, flag], { encoding: 'utf8' });
  return (JSON.parse(output) as { peakMiB: number }).peakMiB;
}

describe('the heap growth `switchyard serve` sets', () => {
  it('is bounded by default, and an operator\'s own heap setting, as a flag or in NODE_OPTIONS, stands', () => {
    expect(heapGrowthFlag([], '')).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--enable-source-maps'], '--no-warnings')).toBe(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
    expect(heapGrowthFlag(['--max-old-space-size=4096'], '')).toBeUndefined();
    expect(heapGrowthFlag(['--heap-growing-percent=200'], '')).toBeUndefined();
    expect(heapGrowthFlag([], '--no-warnings --max-old-space-size=2048')).toBeUndefined();
    expect(heapGrowthFlag(['--max_old_space_size=512'])).toBeUndefined();
    expect(heapGrowthFlag(['--max-heap-size=1024'])).toBeUndefined();
  });

  it('set once the process runs, keeps the old generation within about 1.3× of what the process keeps (V8 alone lets it reach 3× and more)', () => {
    const flag = heapGrowthFlag([], '');
    expect(flag).toBeDefined();
    // about 80 MiB with the flag; about 190 MiB without it on a machine with memory to spare
    expect(oldGenerationPeakMiB(flag ?? '')).toBeLessThan(110);
  });
});

describe('the memory `switchyard serve` gives back before its port opens', () => {
  const youngGenerationMiB = () => (getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0) / 2 ** 20;

  it('includes the young generation a start-up grew', async () => {
    // as a start-up grows it: objects that outlive a scavenge or two, by the hundred thousand
    let survivors: Array<{ index: number }> = [];
    for (let index = 0; index < 2_000_000; index += 1) {
      survivors.push({ index });
      if (survivors.length > 200_000) survivors = [];
    }
    expect(youngGenerationMiB()).toBeGreaterThan(8);
    await releaseStartupMemory();
    expect(youngGenerationMiB()).toBeLessThanOrEqual(2);
    expect(survivors.length).toBeGreaterThan(0);
  });
});
