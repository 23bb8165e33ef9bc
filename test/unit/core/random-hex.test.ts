import { describe, expect, it } from 'vitest';
import { randomHex } from '../../../src/core/random-hex.js';

describe('pooled random hex', () => {
  it('gives the asked number of bytes as hex, never repeating across pool refills', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 2000; i++) {
      const hex = randomHex(12);
      expect(hex).toMatch(/^[0-9a-f]{24}$/);
      seen.add(hex);
    }
    expect(seen.size).toBe(2000);
  });

  it('refuses more than one pool at a time', () => {
    expect(() => randomHex(5000)).toThrow(RangeError);
  });
});
