import { countTokens } from 'gpt-tokenizer';
import { O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';

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
/** Special-token markers such as `<|endoftext|>` in caller text are counted as plain text. */
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() };

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
 * left to the next window, unless it fills the whole window (a long run, sliced here).
 */
function countWindow(text: string, start: number, units: number): { tokens: number; end: number } {
  const last = start + units >= text.length;
  const window = text.slice(start, last ? text.length : pairSafeEnd(text, start + units));
  let tokens = 0;
  let batchStart = 0;
  let stop = window.length;
  for (const match of window.matchAll(O200K_TOKEN_SPLIT_REGEX)) {
    const piece = match[0];
    const at = match.index;
    const open = !last && at + piece.length === window.length;
    if (open && at > 0) {
      stop = at;
      break;
    }
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

function countPiece(text: string): number {
  return text.includes('<|') ? countTokens(text, PLAIN_TEXT) : countTokens(text);
}

/** Character classes for hasOnlyShortPieces: ASCII by table, anything else one class. */
const LETTER = 0;
const DIGIT = 1;
const BLANK = 2;
const BREAK = 3;
const APOSTROPHE = 4;
const SYMBOL = 5;
const OTHER = 6;
const CLASSES = 7;

const ASCII_CLASS = Uint8Array.from({ length: 128 }, (_, code) => {
  if ((code >= 0x41 && code <= 0x5a) || (code >= 0x61 && code <= 0x7a)) return LETTER;
  if (code >= 0x30 && code <= 0x39) return DIGIT;
  if (code === 0x20 || code === 0x09) return BLANK;
  if (code >= 0x0a && code <= 0x0d) return BREAK;
  return code === 0x27 ? APOSTROPHE : SYMBOL;
});

/** CUT[previous * CLASSES + current] is 1 where the split pattern always cuts between the two. */
const CUT = Uint8Array.from({ length: CLASSES * CLASSES }, (_, index) => {
  const previous = Math.floor(index / CLASSES);
  const current = index % CLASSES;
  if (previous === DIGIT || current === DIGIT) return 1;
  if (current === BLANK && previous !== BLANK && previous !== BREAK && previous !== OTHER) return 1;
  return previous === LETTER && current !== LETTER && current !== APOSTROPHE && current !== OTHER ? 1 : 0;
});

/**
 * Whether the split pattern can only cut `text` into pre-tokens of at most LONG_PIECE units, judged
 * in one pass from cuts it always makes (ASCII only; any other character may extend a pre-token):
 * around a digit (digits form pre-tokens of their own, at most three long), before a space or tab
 * that follows a non-space (a space only ever starts a pre-token or belongs to a run of spaces), and
 * before anything but a letter or an apostrophe that follows a letter (only a contraction such as
 * `'s` continues a word).
 */
export function hasOnlyShortPieces(text: string): boolean {
  if (text.length <= LONG_PIECE) return true;
  let run = 0;
  let previous = BLANK;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    const current = code < 0x80 ? (ASCII_CLASS[code] as number) : OTHER;
    run = CUT[previous * CLASSES + current] === 1 ? 1 : run + 1;
    if (run > LONG_PIECE) return false;
    previous = current;
  }
  return true;
}
