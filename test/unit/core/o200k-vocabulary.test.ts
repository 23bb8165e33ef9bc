import { countTokens } from 'gpt-tokenizer';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { describe, expect, it } from 'vitest';
import { countPreToken } from '../../../src/core/o200k-vocabulary.js';
import { code, compactJson, prettyJson, prose, randomCjk, randomEmoji, randomSymbols, seeded } from '../../fixtures/text-samples.js';

const PLAIN = { disallowedSpecial: new Set<string>() };

/** Every pre-token of `text` counted on its own, long ones included (text-tokens.ts slices those first). */
function counted(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(O200K_TOKEN_SPLIT_REGEX)) tokens += countPreToken(piece);
  return tokens;
}

/** Text of `length` code units drawn from [low, high), lone surrogates included when the range holds them. */
function randomRange(length: number, low: number, high: number, seed: number): string {
  const next = seeded(seed);
  return Array.from({ length }, () => String.fromCharCode(low + Math.floor(next() * (high - low)))).join('');
}

describe('o200k counts from the compact vocabulary', () => {
  it.each([
    ['prose', () => prose().slice(0, 60_000)],
    ['code', () => code().slice(0, 60_000)],
    ['compact JSON', () => compactJson().slice(0, 30_000)],
    ['pretty JSON', () => prettyJson().slice(0, 30_000)],
    ['random symbols', () => randomSymbols(2_000, 3)],
    ['random CJK', () => randomCjk(1_000, 4)],
    ['random emoji', () => randomEmoji(2_000, 5)],
    ['random Latin, Greek, Cyrillic, Arabic, Indic', () => randomRange(8_000, 0xa0, 0x1000, 6)],
    ['text with lone surrogates', () => randomRange(4_000, 0xd700, 0xe100, 7)],
    ['control characters and ASCII', () => randomRange(8_000, 0, 0x80, 8)],
    ['special-token markers as text', () => 'Stop at <|endoftext|> or <|im_start|>user, then <|fim_middle|>.'],
  ])('%s: the same count as gpt-tokenizer', (_name, make) => {
    const text = make();
    expect(counted(text)).toBe(countTokens(text, PLAIN));
  });

  it('a pre-token that is a token whole is one token; one that is not is merged pair by pair', () => {
    expect(countPreToken(' hello')).toBe(1);
    expect(countPreToken('a')).toBe(1);
    expect(countPreToken(' Switchyard')).toBe(countTokens(' Switchyard'));
    expect(countPreToken(' Switchyard')).toBeGreaterThan(1);
  });

  it('a token opening with a byte-order mark is found as tiktoken finds it (gpt-tokenizer drops the mark when it looks the bytes up)', () => {
    expect(countPreToken('\uFEFFusing')).toBe(1);
    expect(countTokens('\uFEFFusing')).toBe(3);
  });
});
