import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { countPreToken } from './o200k-vocabulary.js';

/**
 * o200k token counts (gpt-tokenizer) in time linear in the text.
 *
 * The tokenizer first cuts text into pre-tokens with its split pattern (a word with the space before
 * it, a run of symbols, a run of spaces…), then merges the bytes of each pre-token in time quadratic
 * in its length: 200 KB of one repeated character is a single pre-token and took ~20 s. Here no
 * pre-token longer than LONG_PIECE characters reaches the tokenizer: such a run is counted in slices
 * of that length. Normal text has no such runs and counts exactly as the tokenizer counts it; a
 * sliced run counts about one token more per slice than the tokenizer would find in it whole.
 */

/** The longest pre-token handed to the tokenizer whole, in UTF-16 code units. */
export const LONG_PIECE = 64;
/** Text with long runs is pre-split a window of at most this many code units at a time… */
const WINDOW = 512;
/** …and at least this many (fewer when counting stops sooner: a pre-token cut by it costs a token). */
const MIN_WINDOW = 16;
/** A pre-token of whitespace alone. */
const WHITESPACE = /^\s+$/;

/** Tokens of `text`, exactly as the tokenizer counts them, except inside runs longer than LONG_PIECE. */
export function countTextTokens(text: string): number {
  if (text.length === 0) return 0;
  return hasOnlyShortPieces(text) ? countPiece(text) : countLeadingTokens(text, Number.POSITIVE_INFINITY).tokens;
}

export interface LeadingCount {
  tokens: number;
  /** Code units counted: the text from here on is not. */
  end: number;
  /** UTF-8 bytes counted. */
  bytes: number;
}

/**
 * Counts `text` from its start until at least `maxBytes` UTF-8 bytes are counted (or the text ends),
 * stopping between two pre-tokens, so the count of the part read is exact as in countTextTokens.
 * Each step handles one window; the work is linear in what is counted.
 */
export function countLeadingTokens(text: string, maxBytes: number): LeadingCount {
  let tokens = 0;
  let end = 0;
  let bytes = 0;
  while (end < text.length && bytes < maxBytes) {
    // a code unit takes 1 to 3 bytes: a window of a third of the bytes still wanted never goes far past them
    const units = Math.min(WINDOW, Math.max(MIN_WINDOW, Math.ceil((maxBytes - bytes) / 3)));
    const counted = countWindow(text, end, units);
    tokens += counted.tokens;
    bytes += Buffer.byteLength(text.slice(end, counted.end));
    end = counted.end;
  }
  return { tokens, end, bytes };
}

/**
 * One window of `units` code units from `start`: pre-tokens of at most LONG_PIECE units are counted
 * together, longer ones in slices. A pre-token reaching the window's end may go on past it, so it is
 * left to the next window (with the word before it when it begins with an apostrophe: `it'` and `s`
 * are one pre-token), unless it fills the whole window (a long run, sliced here).
 */
function countWindow(text: string, start: number, units: number): { tokens: number; end: number } {
  const last = start + units >= text.length;
  const window = text.slice(start, last ? text.length : pairSafeEnd(text, start + units));
  let tokens = 0;
  let batchStart = 0;
  let stop = window.length;
  let previous = 0;
  // where the run of whitespace pieces just before the current piece begins (-1: none)
  let spaceFrom = -1;
  for (const match of window.matchAll(O200K_TOKEN_SPLIT_REGEX)) {
    const piece = match[0];
    const at = match.index;
    const open = !last && at + piece.length === window.length;
    if (open && at > 0) {
      // an apostrophe may end the word before it once more text follows (`it'` + `s` is one piece `it's`)
      stop = piece.startsWith("'") && previous > batchStart ? previous : at;
      // spaces are split by what follows them (two before `200` are two pieces, at the end of a
      // text one): a run just before the piece left goes with it to the next window
      if (stop === at && spaceFrom > 0 && spaceFrom >= batchStart) stop = spaceFrom;
      break;
    }
    spaceFrom = WHITESPACE.test(piece) ? (spaceFrom < 0 ? at : spaceFrom) : -1;
    previous = at;
    if (piece.length <= LONG_PIECE && !open) continue;
    if (at > batchStart) tokens += countPiece(window.slice(batchStart, at));
    tokens += countSlices(piece);
    batchStart = at + piece.length;
  }
  if (stop > batchStart) tokens += countPiece(window.slice(batchStart, stop));
  return { tokens, end: start + stop };
}

function countSlices(run: string): number {
  let tokens = 0;
  for (let start = 0; start < run.length; ) {
    const end = start + LONG_PIECE >= run.length ? run.length : pairSafeEnd(run, start + LONG_PIECE);
    tokens += countPiece(run.slice(start, end));
    start = end;
  }
  return tokens;
}

/** `end`, moved on by one where it would fall between the two halves of a surrogate pair. */
function pairSafeEnd(text: string, end: number): number {
  const before = text.charCodeAt(end - 1);
  return before >= 0xd800 && before <= 0xdbff ? end + 1 : end;
}

/** Tokens of `text`, cut by the split pattern, each pre-token counted on its own (o200k-vocabulary.ts). Special-token markers such as `<|endoftext|>` are plain text. */
function countPiece(text: string): number {
  let tokens = 0;
  for (const [piece] of text.matchAll(O200K_TOKEN_SPLIT_REGEX)) tokens += countPreToken(piece);
  return tokens;
}

/** Character classes for hasOnlyShortPieces. */
const LETTER = 0;
const DIGIT = 1;
/** A space or a tab. */
const BLANK = 2;
/** Any other whitespace (line breaks, and the non-ASCII spaces of `\s`). */
const BREAK = 3;
const APOSTROPHE = 4;
/** Neither letter, digit nor whitespace. */
const SYMBOL = 5;
/** Not whitespace, but may be a letter, a mark, a digit or a symbol. */
const OTHER = 6;
const CLASSES = 7;

/**
 * Blocks of letters only (every code point a `\p{L}`): Latin-1 letters, Greek, Cyrillic, Hebrew,
 * Arabic, kana, CJK ideographs, Hangul syllables. As [first, last] pairs.
 */
const LETTER_RANGES = [
  0xc0, 0xd6, 0xd8, 0xf6, 0xf8, 0xff, 0x391, 0x3a1, 0x3a3, 0x3a9, 0x3b1, 0x3c9, 0x400, 0x45f, 0x5d0, 0x5ea,
  0x621, 0x64a, 0x3041, 0x3096, 0x30a1, 0x30fa, 0x4e00, 0x9fff, 0xac00, 0xd7a3,
];
/** Punctuation common in text (`\p{P}`): dashes, quotes, ellipsis, CJK and fullwidth marks. */
const PUNCTUATION = [
  0x2013, 0x2014, 0x2018, 0x2019, 0x201c, 0x201d, 0x2026, 0x3001, 0x3002, 0x300c, 0x300d, 0x300e, 0x300f,
  0xff01, 0xff08, 0xff09, 0xff0c, 0xff1a, 0xff1b, 0xff1f,
];
/** The non-ASCII whitespace of `\s`. */
const WIDE_SPACES = [
  0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
];

/** The class of every UTF-16 code unit (64 KiB, built once; a surrogate half is OTHER). */
const CLASS_OF = classTable();

function classTable(): Uint8Array {
  const table = new Uint8Array(0x10000).fill(OTHER);
  for (let code = 0; code < 0x80; code += 1) table[code] = asciiClass(code);
  for (let index = 0; index < LETTER_RANGES.length; index += 2) {
    table.fill(LETTER, LETTER_RANGES[index], (LETTER_RANGES[index + 1] ?? 0) + 1);
  }
  for (const code of PUNCTUATION) table[code] = SYMBOL;
  for (const code of WIDE_SPACES) table[code] = BREAK;
  return table;
}

function asciiClass(code: number): number {
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return LETTER;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  if (code === 0x20 || code === 0x09) return BLANK;
  if (code >= 0x0a && code <= 0x0d) return BREAK;
  return code === 0x27 ? APOSTROPHE : SYMBOL;
}

/** CUT[previous * CLASSES + current] is 1 where the split pattern always cuts between the two. */
const CUT = Uint8Array.from({ length: CLASSES * CLASSES }, (_, index) => {
  const previous = Math.floor(index / CLASSES);
  const current = index % CLASSES;
  if (previous === DIGIT || current === DIGIT) return 1;
  if (current === BLANK && previous !== BLANK && previous !== BREAK) return 1;
  return previous === LETTER && current !== LETTER && current !== APOSTROPHE && current !== OTHER ? 1 : 0;
});

/**
 * Whether the split pattern can only cut `text` into pre-tokens of at most LONG_PIECE units, judged
 * in one pass from cuts it always makes: around a digit (digits form pre-tokens of their own, at
 * most three long), before a space or tab that follows anything but whitespace (a space only ever
 * starts a pre-token or belongs to a run of whitespace), and before whitespace or a symbol (anything
 * but a letter or an apostrophe) that follows a letter (only a contraction such as `'s` continues a
 * word). Characters outside the blocks it knows may extend a pre-token either way.
 */
export function hasOnlyShortPieces(text: string): boolean {
  if (text.length <= LONG_PIECE) return true;
  let run = 0;
  let previous = BLANK;
  for (let index = 0; index < text.length; index += 1) {
    const current = CLASS_OF[text.charCodeAt(index)] as number;
    run = CUT[previous * CLASSES + current] === 1 ? 1 : run + 1;
    if (run > LONG_PIECE) return false;
    previous = current;
  }
  return true;
}
