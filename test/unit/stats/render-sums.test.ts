import { describe, expect, it } from 'vitest';
import { RenderSums } from '../../../src/stats/render-sums.js';

function sums(renders: Array<[megapixels: number, seconds: number, size: string]>): RenderSums {
  const collected = new RenderSums();
  for (const [megapixels, seconds, size] of renders) collected.add({ megapixels, seconds, sizes: [size] });
  return collected;
}

describe('render sums: seconds a render takes, fitted on its megapixels', () => {
  it('recovers an exact line: 1.5 s fixed and 4 s a megapixel', () => {
    const fitted = sums([[0.065536, 1.5 + 4 * 0.065536, '256x256'], [1.048576, 1.5 + 4 * 1.048576, '1024x1024'], [0.262144, 1.5 + 4 * 0.262144, '512x512']]).fit();
    expect(fitted).toEqual({ fixed_seconds: 1.5, seconds_per_megapixel: 4 });
  });

  it('is null while every render had the same megapixels: no line can be fitted', () => {
    expect(sums([[1, 2, '1000x1000'], [1, 3, '1000x1000'], [1, 4, '1000x1000']]).fit()).toBeNull();
    expect(new RenderSums().fit()).toBeNull();
  });

  it('is held non-negative: a falling line is the mean, a line crossing below zero goes through the origin', () => {
    expect(sums([[1, 5, 'a'], [2, 3, 'b']]).fit()).toEqual({ fixed_seconds: 4, seconds_per_megapixel: 0 });
    // fitted: −1 s fixed and 3 s a megapixel; through the origin instead
    const origin = sums([[1, 2, 'a'], [2, 5, 'b']]);
    expect(origin.fit()).toEqual({ fixed_seconds: 0, seconds_per_megapixel: Math.round((12 / 5) * 1000) / 1000 });
  });

  it('merges as if every render had been added to one: other minutes, other instances', () => {
    const first = sums([[0.25, 2, '512x512'], [1, 5, '1024x1024']]);
    const second = sums([[0.0625, 1.25, '256x256'], [1, 5, '1024x1024']]);
    first.merge(second);
    const whole = sums([[0.25, 2, '512x512'], [1, 5, '1024x1024'], [0.0625, 1.25, '256x256'], [1, 5, '1024x1024']]);
    expect(first.renders).toBe(4);
    expect([...first.sizes].sort()).toEqual(['1024x1024', '256x256', '512x512']);
    expect(first.fit()).toEqual(whole.fit());
  });

  it('is stored and read back whole; a row that is not its encoding reads as nothing', () => {
    const stored = sums([[0.25, 2, '512x512'], [1, 5, '1024x1024']]);
    const read = RenderSums.decode(stored.encode());
    expect(read?.renders).toBe(2);
    expect(read?.fit()).toEqual(stored.fit());
    expect([...(read?.sizes ?? [])]).toEqual(['512x512', '1024x1024']);
    expect(RenderSums.decode(null)).toBeUndefined();
    expect(RenderSums.decode('{"n":1}')).toBeUndefined();
    expect(RenderSums.decode('not json')).toBeUndefined();
  });
});
