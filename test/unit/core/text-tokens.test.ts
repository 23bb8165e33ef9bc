import { countTokens } from 'gpt-tokenizer';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { countLeadingTokens, countTextTokens, hasOnlyShortPieces, LONG_PIECE } from '../../../src/core/text-tokens.js';
import { code, compactJson, prettyJson, prose, randomCjk, randomSymbols, seeded } from '../../fixtures/text-samples.js';

const PLAIN = { disallowedSpecial: new Set<string>() };

const NORMAL: Record<string, () => string> = {
  prose,
  code: () => code(),
  'compact JSON': compactJson,
  'pretty JSON': prettyJson,
  'CJK prose': () => '今天天气很好，我们去公园散步吧。然后在湖边吃午饭，下午回家休息。'.repeat(40),
  'emoji in text': () => 'Launch day 🚀🚀 went well 🎉, thanks all 🙏🏽! '.repeat(60),
  'special-token markers': () => 'Reply with <|endoftext|> and <|im_start|> as plain text. '.repeat(20),
};

describe('countTextTokens', () => {
  it.each(Object.keys(NORMAL))('counts %s exactly as the tokenizer counts it', (name) => {
    const text = NORMAL[name]?.() ?? '';
    expect(countTextTokens(text)).toBe(countTokens(text, PLAIN));
  });

  it.each(Object.keys(NORMAL))('counts %s exactly when it is pre-split window by window too', (name) => {
    const text = NORMAL[name]?.() ?? '';
    expect(countLeadingTokens(text, Number.POSITIVE_INFINITY)).toEqual({
      tokens: countTokens(text, PLAIN),
      end: text.length,
      bytes: Buffer.byteLength(text),
    });
  });

  it('counts exactly wherever a window ends: a piece that more text would lengthen (it\' + s) is left to the next window', () => {
    // the window is 512 code units: shift the text by one unit at a time across its end
    for (let shift = 0; shift < 12; shift += 1) {
      const text = `${'x '.repeat(250)}${' '.repeat(shift)}it's and they're here, ok`;
      expect({ shift, tokens: countLeadingTokens(text, Number.POSITIVE_INFINITY).tokens }).toEqual({ shift, tokens: countTokens(text, PLAIN) });
    }
  });

  it('counts exactly wherever a window ends: spaces split by what follows them (two before a number are two pieces) go with it to the next window', () => {
    for (let shift = 0; shift < 12; shift += 1) {
      const text = `${'x '.repeat(245)}${' '.repeat(shift)}stays under\n  200 MiB, and  7 more`;
      expect({ shift, tokens: countLeadingTokens(text, Number.POSITIVE_INFINITY).tokens }).toEqual({ shift, tokens: countTokens(text, PLAIN) });
    }
  });

  it('counts a 1 MB run of one character in slices of LONG_PIECE, in time linear in its length', () => {
    expect(countTextTokens('a'.repeat(1_048_576))).toBe((1_048_576 / LONG_PIECE) * countTokens('a'.repeat(LONG_PIECE)));
  });

  it('counts a run of repeated emoji in slices, never cutting a character outside the BMP in two', () => {
    // '!' shifts the run by one code unit: a plain 64-unit slice would end inside the 32nd emoji
    const run = `!${'😀'.repeat(32 * 1000)}`;
    const expected = countTokens(`!${'😀'.repeat(32)}`) + 999 * countTokens('😀'.repeat(32));
    expect(countTextTokens(run)).toBe(expected);
  });

  it('counts a run of random CJK ideographs slice by slice', () => {
    const run = randomCjk(100 * LONG_PIECE);
    let expected = 0;
    for (let start = 0; start < run.length; start += LONG_PIECE) expected += countTokens(run.slice(start, start + LONG_PIECE));
    expect(countTextTokens(run)).toBe(expected);
  });

  it('counts the words around a long run exactly and the pre-token holding the run in slices', () => {
    const words = 'Please summarise the following attachment for me:';
    const piece = ` ${'='.repeat(10 * LONG_PIECE)}\n`;
    let slices = 0;
    for (let start = 0; start < piece.length; start += LONG_PIECE) slices += countTokens(piece.slice(start, start + LONG_PIECE));
    expect(countTextTokens(`${words}${piece}Thank you.`)).toBe(countTokens(words) + slices + countTokens('Thank you.'));
  });

  it('counts 256 KB of random symbols without spaces exactly (their pieces are short)', () => {
    const text = randomSymbols(262_144);
    expect(countTextTokens(text)).toBe(countTokens(text));
  });
});

describe('countLeadingTokens', () => {
  it('stops between two pre-tokens once the bytes asked for are counted, exact for the part read', () => {
    const text = prose();
    const counted = countLeadingTokens(text, 2000);
    expect(counted.bytes).toBeGreaterThanOrEqual(2000);
    expect(counted.bytes).toBeLessThan(2000 + 3 * 512);
    expect(counted.bytes).toBe(Buffer.byteLength(text.slice(0, counted.end)));
    expect(counted.tokens).toBe(countTokens(text.slice(0, counted.end)));
    expect(counted.tokens + countTokens(text.slice(counted.end))).toBe(countTokens(text));
  });
});

describe('hasOnlyShortPieces', () => {
  it.each(['prose', 'code', 'compact JSON', 'pretty JSON'])('holds for %s', (name) => {
    expect(hasOnlyShortPieces(NORMAL[name]?.() ?? '')).toBe(true);
  });

  it(`allows a pre-token of ${LONG_PIECE} code units (a space and a word) and no longer`, () => {
    expect(hasOnlyShortPieces(`a ${'x'.repeat(LONG_PIECE - 1)} b`)).toBe(true);
    expect(hasOnlyShortPieces(`a ${'x'.repeat(LONG_PIECE)} b`)).toBe(false);
  });

  it('whenever it holds, the split pattern makes no pre-token longer than LONG_PIECE (20,000 random texts)', () => {
    const next = seeded(3);
    const alphabet = [
      'a', 'B', 'z', 'aaaaaaaa', ' ', '\t', '\n', '\r', '/', "'", "'s", "'ll", 'll', '.', '!', '-', '_', '1', 'é', 'É', '中',
      '😀', '\u0301', '\u00a0', '{', ':', 'Ж', 'ω', '，', '。', '’', '—', 'ー', '・', '\u3000', '×',
    ];
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
    let held = 0;
    for (let round = 0; round < 20_000; round += 1) {
      const letters = Array.from({ length: 1 + Math.floor(next() * 4) }, () => pick(alphabet));
      let text = '';
      while (text.length < 40 + round % 120) text += pick(letters);
      if (!hasOnlyShortPieces(text)) continue;
      held += 1;
      const longest = Math.max(...Array.from(text.matchAll(O200K_TOKEN_SPLIT_REGEX), (match) => match[0].length));
      expect(longest, JSON.stringify(text)).toBeLessThanOrEqual(LONG_PIECE);
    }
    expect(held).toBeGreaterThan(5_000);
  });

  it('whenever it holds, the split pattern makes no pre-token longer than LONG_PIECE (runs near the limit)', () => {
    const longestPiece = (text: string): number => Math.max(...Array.from(text.matchAll(O200K_TOKEN_SPLIT_REGEX), (match) => match[0].length));
    for (const before of ['', 'x ', 'x(', 'x\n', 'x!', 'x\n\n', 'x/']) {
      for (const unit of ['a', 'A', 'aB', '!', ' ', '\n', '/', '\n/', '中', 'é']) {
        for (let length = LONG_PIECE - 4; length <= LONG_PIECE + 1; length += 1) {
          for (const after of ['', "'ll", "'s", "'", '\n', '\n\n', '/', ' b', '!', 'b']) {
            const text = `${before}${unit.repeat(length).slice(0, length)}${after}`;
            if (hasOnlyShortPieces(text)) expect(longestPiece(text), JSON.stringify(text)).toBeLessThanOrEqual(LONG_PIECE);
          }
        }
      }
    }
  });

  it('whenever it holds, the split pattern makes no pre-token longer than LONG_PIECE (each BMP character beside a long run)', () => {
    const longestPiece = (text: string): number => Math.max(...Array.from(text.matchAll(O200K_TOKEN_SPLIT_REGEX), (match) => match[0].length));
    const wrong: string[] = [];
    for (let code = 0x80; code <= 0xffff; code += 1) {
      if (code >= 0xd800 && code <= 0xdfff) continue;
      const character = String.fromCharCode(code);
      // a letter before it, symbols or spaces after it: each claim the check makes about it is put to the test
      for (const text of ['a'.repeat(LONG_PIECE) + character, character + '!'.repeat(LONG_PIECE), character + ' '.repeat(LONG_PIECE)]) {
        if (hasOnlyShortPieces(text) && longestPiece(text) > LONG_PIECE) wrong.push(code.toString(16));
      }
    }
    expect(wrong).toEqual([]);
  });

  it('holds for prose in Russian, Chinese and Japanese, and for text with typographic quotes and dashes', () => {
    expect(hasOnlyShortPieces('Съешь же ещё этих мягких французских булок, да выпей чаю. '.repeat(10))).toBe(true);
    expect(hasOnlyShortPieces('今天天气很好，我们去公园散步吧。然后在湖边吃午饭，下午回家休息。'.repeat(10))).toBe(true);
    expect(hasOnlyShortPieces('「こんにちは」と彼女は言った。カタカナも、ひらがなも、漢字もある。'.repeat(10))).toBe(true);
    expect(hasOnlyShortPieces('“It’s done” — she said… ‘again’ – twice. '.repeat(10))).toBe(true);
  });

  it('does not hold for long runs of symbols, of spaces, of letters, or of characters it cannot judge', () => {
    expect(hasOnlyShortPieces('-'.repeat(LONG_PIECE + 1))).toBe(false);
    expect(hasOnlyShortPieces(' '.repeat(LONG_PIECE + 1))).toBe(false);
    expect(hasOnlyShortPieces(`!${'\n/'.repeat(LONG_PIECE)}`)).toBe(false);
    expect(hasOnlyShortPieces('中'.repeat(LONG_PIECE + 1))).toBe(false);
    expect(hasOnlyShortPieces(`x${'ー・'.repeat(LONG_PIECE)}`)).toBe(false);
  });
});
