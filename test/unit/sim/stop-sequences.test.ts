import { describe, expect, it } from 'vitest';
import { cutAtStop, requestedStops } from '../../../src/sim/stop-sequences.js';

describe('simulator stop sequences', () => {
  it('the answer ends before the earliest stop sequence, cutting the token it starts in', () => {
    const tokens = ['Hello', ' from', ' the', ' provider'];
    expect(cutAtStop(tokens, ['provider', ' th'])).toEqual({ content: ['Hello', ' from'], stop: ' th' });
    expect(cutAtStop(tokens, ['rom'])).toEqual({ content: ['Hello', ' f'], stop: 'rom' });
    expect(cutAtStop(tokens, ['zzz'])).toEqual({ content: tokens });
  });

  it('stop is a string or strings; empty entries are ignored', () => {
    expect(requestedStops({ stop: 'END' })).toEqual(['END']);
    expect(requestedStops({ stop: ['a', '', 3] })).toEqual(['a']);
    expect(requestedStops({})).toEqual([]);
  });
});
