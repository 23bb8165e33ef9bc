import { describe, expect, it } from 'vitest';
import { AnswerMeter } from '../../../src/core/answer-meter.js';
import { countText } from '../../../src/core/token-estimate.js';

/** Where the last word of `text` starts: its last space followed by a non-space (0 when none). */
function lastWordStart(text: string): number {
  for (let i = text.length - 2; i > 0; i -= 1) if (text[i] === ' ' && /\S/.test(text[i + 1] ?? '')) return i;
  return 0;
}

const TEXT = 'The quick brown fox, having jumped over 13 lazy dogs,\nlanded  softly. Then: "why?" it asked; nobody answered.';

describe('produced tokens of an answer', () => {
  it('counted a piece at a time, they add up to the tokens of the whole output before its last word', () => {
    const meter = new AnswerMeter();
    let seen = '';
    for (let start = 0; start < TEXT.length; start += 7) {
      const piece = TEXT.slice(start, start + 7);
      meter.observe({ type: 'text.delta', index: 0, text: piece });
      seen += piece;
      expect(meter.producedTokens()).toBe(countText(seen.slice(0, lastWordStart(seen))));
    }
  });

  it('reasoning and tool-call arguments count as produced output too', () => {
    const meter = new AnswerMeter();
    meter.observe({ type: 'reasoning.delta', index: 0, kind: 'text', text: 'thinking hard ' });
    meter.observe({ type: 'tool.delta', index: 1, toolIndex: 0, args: '{"city": "Paris"} }' });
    expect(meter.producedTokens()).toBe(countText('thinking hard {"city": "Paris"}'));
  });

  it('a run of text without a word boundary is counted once it is 4096 characters long', () => {
    const meter = new AnswerMeter();
    meter.observe({ type: 'text.delta', index: 0, text: 'x'.repeat(4095) });
    expect(meter.producedTokens()).toBe(0);
    meter.observe({ type: 'text.delta', index: 0, text: 'x' });
    expect(meter.producedTokens()).toBe(countText('x'.repeat(4096)));
  });
});
