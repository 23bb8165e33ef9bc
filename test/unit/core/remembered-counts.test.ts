import { describe, expect, it } from 'vitest';
import { RememberedCounts } from '../../../src/core/remembered-counts.js';
import { countText, estimatePromptTokens, remembered, WHOLE } from '../../../src/core/token-estimate.js';
import { compactJson, prose } from '../../fixtures/text-samples.js';

let texts = 0;
/** A text no other test has counted (the remembered counts are the process's own). */
function fresh(text: string): string {
  texts += 1;
  return `${Date.now()}-${texts} ${text}`;
}

/** Makes the remembered count of `text` wrong, so that an estimate using it shows it was not tokenized again. */
function plantWrongCount(text: string): number {
  const known = remembered.get(text);
  if (!known) throw new Error('not remembered');
  remembered.set(text, { ...known, tokens: known.tokens + 1000 });
  return 1000;
}

describe('texts sent again are not tokenized again', () => {
  it('a system prompt and tool schemas resent with the next turn: the same estimate, read from what was remembered', () => {
    const system = fresh(prose().slice(0, 3000));
    const tools = [{ type: 'function' as const, function: { name: 'lookup', description: fresh(compactJson().slice(0, 1500)), parameters: { type: 'object' } } }];
    const turn = (content: string) => estimatePromptTokens([{ role: 'system', content }, { role: 'user', content: 'Which siding is free?' }], structuredClone(tools));
    const first = turn(system);
    expect(turn(system.slice(0))).toBe(first);
    expect(remembered.get(system)?.share).toBe(WHOLE);
    expect(remembered.get(JSON.stringify(tools))?.share).toBe(WHOLE);
    const wrongBy = plantWrongCount(system);
    expect(turn(system)).toBe(first + wrongBy);
  });

  it('a text too long to count whole: its samples are remembered for the same share of the budget, counted anew for another', () => {
    const long = fresh(prose().repeat(8).slice(0, 60_000));
    const first = countText(long);
    expect(countText(long)).toBe(first);
    const wrongBy = plantWrongCount(long);
    expect(countText(long)).toBeGreaterThan(first + wrongBy / 2);
    // after another text has taken part of the budget the long one has a smaller share: sampled anew
    const before = fresh(prose().slice(0, 4000));
    const behind = estimatePromptTokens([{ role: 'user', content: before }, { role: 'user', content: long }]);
    expect(behind - countText(before) - 6).toBeLessThan(first * 1.1);
    expect(remembered.get(long)?.share).toBeLessThan(4096);
  });

  it('texts shorter than 64 code units are not remembered', () => {
    const short = fresh('Which siding is free?');
    countText(short);
    expect(remembered.get(short)).toBeUndefined();
  });
});

describe('RememberedCounts', () => {
  it('keeps texts up to its bound in code units, forgetting the oldest first', () => {
    const counts = new RememberedCounts<number>(400, 10);
    counts.set('a'.repeat(100), 1);
    counts.set('b'.repeat(100), 2);
    counts.set('c'.repeat(100), 3);
    counts.set('d'.repeat(100), 4);
    expect(counts.get('a'.repeat(100))).toBe(1);
    counts.set('e'.repeat(100), 5);
    expect(counts.get('a'.repeat(100))).toBeUndefined();
    expect(counts.get('b'.repeat(100))).toBe(2);
    expect(counts.get('e'.repeat(100))).toBe(5);
  });

  it('keeps neither texts shorter than its least length nor texts longer than a quarter of its bound', () => {
    const counts = new RememberedCounts<number>(400, 10);
    counts.set('short', 1);
    counts.set('x'.repeat(101), 2);
    expect(counts.get('short')).toBeUndefined();
    expect(counts.get('x'.repeat(101))).toBeUndefined();
  });

  it('a text remembered again replaces its count without counting its length twice', () => {
    const counts = new RememberedCounts<number>(200, 10);
    counts.set('a'.repeat(50), 1);
    counts.set('a'.repeat(50), 2);
    counts.set('b'.repeat(50), 3);
    counts.set('c'.repeat(50), 4);
    counts.set('d'.repeat(50), 5);
    expect(counts.get('a'.repeat(50))).toBe(2);
  });
});
