import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

/**
 * The o200k byte-pair vocabulary, held compactly, and the count of tokens one pre-token makes.
 *
 * The vocabulary is read from gpt-tokenizer's own data file (one token per line: its bytes in
 * base64, then its rank) the first time a text is counted. Every token's bytes sit in one buffer,
 * found through an open-addressing table of ranks: about 4 MiB in all, where the library's own
 * tables (200,000 strings in a Map, and the JavaScript source they are built from) keep about
 * 50 MiB of the process's memory. The counts are tiktoken's and so the library's: the same
 * byte-pair merges (the adjacent pair of lowest rank first, the leftmost of equals), and a
 * pre-token that is a token whole is that token. One difference, the library's: it looks up the
 * bytes of a merge as text, so the nine tokens opening with a byte-order mark are found without it
 * (`\uFEFFusing` is 3 tokens there, 1 here and in tiktoken).
 */
class Vocabulary {
  /** Every token's bytes, one after another, in rank order. */
  readonly #bytes: Uint8Array;
  /** Where the bytes of the token of each rank start; one more entry ends the last. */
  readonly #starts: Uint32Array;
  /** Rank + 1 at a slot hashed from the token's bytes; 0 is an empty slot. */
  readonly #slots: Int32Array;

  /** `file`: one token a line, its bytes in base64, a space, its rank; in rank order. */
  constructor(file: Uint8Array) {
    const bytes = new Uint8Array(Math.ceil((file.length * 3) / 4));
    const starts: number[] = [];
    let end = 0;
    for (let at = 0; at < file.length; ) {
      const space = file.indexOf(SPACE, at);
      const lineEnd = file.indexOf(NEWLINE, space);
      const stop = lineEnd < 0 ? file.length : lineEnd;
      if (space < 0 || readRank(file, space + 1, stop) !== starts.length) throw new Error(`o200k vocabulary: line ${starts.length + 1} is not rank ${starts.length}`);
      starts.push(end);
      end = decodeBase64(file, at, space, bytes, end);
      at = stop + 1;
    }
    starts.push(end);
    this.#bytes = bytes.subarray(0, end);
    this.#starts = Uint32Array.from(starts);
    this.#slots = new Int32Array(tableSize(starts.length - 1));
    for (let rank = 0; rank + 1 < starts.length; rank += 1) this.#place(this.#bytes.subarray(starts[rank], starts[rank + 1]), rank);
  }

  /** The rank of the token whose bytes are `source[start..end)`, or -1 when they are none. */
  rankOf(source: Uint8Array, start: number, end: number, hash = hashOf(source, start, end)): number {
    const mask = this.#slots.length - 1;
    for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
      const stored = this.#slots[slot] ?? 0;
      if (stored === 0) return -1;
      if (this.#equals(stored - 1, source, start, end)) return stored - 1;
    }
  }

  #place(token: Uint8Array, rank: number): void {
    const mask = this.#slots.length - 1;
    let slot = hashOf(token, 0, token.length) & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = rank + 1;
  }

  #equals(rank: number, source: Uint8Array, start: number, end: number): boolean {
    const from = this.#starts[rank] ?? 0;
    if ((this.#starts[rank + 1] ?? 0) - from !== end - start) return false;
    for (let index = 0; index < end - start; index += 1) if (this.#bytes[from + index] !== source[start + index]) return false;
    return true;
  }
}

const SPACE = 0x20;
const NEWLINE = 0x0a;
const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const SEXTETS = new Int8Array(256).fill(-1);
for (let index = 0; index < BASE64.length; index += 1) SEXTETS[BASE64.charCodeAt(index)] = index;

/** Decodes the base64 of `source[start..end)` into `target` from `at`; returns where it stopped. */
function decodeBase64(source: Uint8Array, start: number, end: number, target: Uint8Array, at: number): number {
  let bits = 0;
  let held = 0;
  let next = at;
  for (let index = start; index < end; index += 1) {
    const sextet = SEXTETS[source[index] ?? 0] ?? -1;
    if (sextet < 0) break;
    bits = (bits << 6) | sextet;
    held += 6;
    if (held >= 8) {
      held -= 8;
      target[next] = (bits >> held) & 0xff;
      next += 1;
    }
  }
  return next;
}

function readRank(source: Uint8Array, start: number, end: number): number {
  let rank = 0;
  for (let index = start; index < end; index += 1) rank = rank * 10 + ((source[index] ?? 0) - 0x30);
  return rank;
}

/** A power of two at least twice the entries, so that probes stay short. */
function tableSize(entries: number): number {
  let size = 1;
  while (size < entries * 2) size *= 2;
  return size;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

/** FNV-1a over the bytes. */
function hashOf(source: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let index = start; index < end; index += 1) hash = Math.imul(hash ^ (source[index] ?? 0), FNV_PRIME);
  return hash >>> 0;
}

let vocabulary: Vocabulary | undefined;

/** Reads the vocabulary now, where the first count would (a gateway starting, so that its first request does not wait about 0.1 s for it). */
export function loadTokenVocabulary(): void {
  loaded();
}

function loaded(): Vocabulary {
  if (!vocabulary) {
    const library = dirname(createRequire(import.meta.url).resolve('gpt-tokenizer'));
    vocabulary = new Vocabulary(readFileSync(join(library, '..', 'data', 'o200k_base.tiktoken')));
  }
  return vocabulary;
}

/** Bytes of the pre-token being counted; grown when one is longer. */
let scratch = Buffer.alloc(1024);
/** Where each part of the pre-token starts, and the rank of each part with the one after it. */
let starts = new Int32Array(1025);
let ranks = new Float64Array(1025);

/** Tokens of one pre-token (a piece of text the split pattern cut). */
export function countPreToken(piece: string): number {
  const words = loaded();
  if (piece.length * 3 > scratch.length) {
    scratch = Buffer.alloc(piece.length * 3);
    starts = new Int32Array(scratch.length + 1);
    ranks = new Float64Array(scratch.length + 1);
  }
  // ASCII, the most common case, is copied and hashed in one pass
  let hash = FNV_OFFSET;
  let length = piece.length;
  for (let index = 0; index < piece.length; index += 1) {
    const code = piece.charCodeAt(index);
    if (code >= 0x80) {
      length = scratch.write(piece, 0, 'utf8');
      hash = hashOf(scratch, 0, length);
      break;
    }
    scratch[index] = code;
    hash = Math.imul(hash ^ code, FNV_PRIME);
  }
  if (length <= 1) return length;
  return words.rankOf(scratch, 0, length, hash >>> 0) >= 0 ? 1 : mergedParts(words, length);
}

/** The byte-pair merges of the pre-token in `scratch[0..length)`: how many parts are left. */
function mergedParts(words: Vocabulary, length: number): number {
  let parts = length;
  for (let index = 0; index <= length; index += 1) starts[index] = index;
  for (let index = 0; index < parts; index += 1) ranks[index] = pairRank(words, index, parts);
  for (;;) {
    let lowest = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let index = 0; index < parts - 1; index += 1) {
      const rank = ranks[index] ?? Number.POSITIVE_INFINITY;
      if (rank < lowest) {
        lowest = rank;
        at = index;
      }
    }
    if (at < 0) return parts;
    starts.copyWithin(at + 1, at + 2, parts + 1);
    ranks.copyWithin(at + 1, at + 2, parts);
    parts -= 1;
    ranks[at] = pairRank(words, at, parts);
    if (at > 0) ranks[at - 1] = pairRank(words, at - 1, parts);
  }
}

/** The rank of part `index` joined with the part after it, or infinity when that is no token. */
function pairRank(words: Vocabulary, index: number, parts: number): number {
  if (index + 1 >= parts) return Number.POSITIVE_INFINITY;
  const rank = words.rankOf(scratch, starts[index] ?? 0, starts[index + 2] ?? 0);
  return rank < 0 ? Number.POSITIVE_INFINITY : rank;
}
