import { createHash } from 'node:crypto';

/** Spoken words a minute, about a calm speaker's: the transcript's length follows the audio's. */
const WORDS_PER_SECOND = 2.5;
const WORDS_PER_SEGMENT = 8;

const VOCABULARY = [
  'the', 'signal', 'arrives', 'on', 'time', 'and', 'every', 'switch', 'holds', 'its', 'route',
  'a', 'quiet', 'yard', 'keeps', 'trains', 'moving', 'north', 'under', 'clear', 'skies', 'while',
  'lanterns', 'mark', 'each', 'track', 'for', 'across', 'night', 'crew', 'to', 'follow',
] as const;

export interface TimedWord {
  word: string;
  start: number;
  end: number;
}

export interface TranscriptSegment {
  id: number;
  start: number;
  end: number;
  /** The sentence, with the leading space Whisper puts before every segment's text. */
  text: string;
  words: TimedWord[];
}

export interface TranscriptPlan {
  /** Seconds of audio, as its container says. */
  duration: number;
  text: string;
  words: TimedWord[];
  segments: TranscriptSegment[];
}

/** Seconds rounded to the millisecond, as timestamps are written. */
function rounded(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}

/** Word i of the transcript: drawn from a SHA-256 stream keyed by the audio's own digest. */
function wordsOf(audio: Uint8Array, count: number): string[] {
  const seed = createHash('sha256').update(audio).digest();
  const words: string[] = [];
  for (let block = 0; words.length < count; block += 1) {
    const bytes = createHash('sha256').update(seed).update(String(block)).digest();
    for (const byte of bytes) {
      if (words.length === count) break;
      words.push(VOCABULARY[byte % VOCABULARY.length] ?? 'the');
    }
  }
  return words;
}

function sentence(words: readonly TimedWord[]): string {
  const text = words.map((item) => item.word).join(' ');
  return ` ${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

/**
 * A deterministic transcript of an upload: the same bytes always give the same words; 2.5 words a
 * second of audio (at least one), spread evenly over the duration, in sentences of up to 8 words,
 * each a segment.
 */
export function planTranscript(audio: Uint8Array, duration: number): TranscriptPlan {
  const count = Math.max(1, Math.round(duration * WORDS_PER_SECOND));
  const step = duration / count;
  const words = wordsOf(audio, count).map((word, i) => ({ word, start: rounded(i * step), end: rounded((i + 1) * step) }));
  const segments: TranscriptSegment[] = [];
  for (let first = 0; first < words.length; first += WORDS_PER_SEGMENT) {
    const part = words.slice(first, first + WORDS_PER_SEGMENT);
    segments.push({ id: segments.length, start: part[0]?.start ?? 0, end: part.at(-1)?.end ?? 0, text: sentence(part), words: part });
  }
  return { duration, text: segments.map((segment) => segment.text.trim()).join(' '), words, segments };
}
