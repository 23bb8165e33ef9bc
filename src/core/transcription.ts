/** The core form of a transcription call (`/audio/transcriptions`), between its dialect and the upstream adapters. */

import type { AudioContainer } from './audio-container.js';

/** What a transcription may be answered as: JSON (`json`, `verbose_json`) or plain text (`text`) and captions (`srt`, `vtt`). */
export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export const TIMESTAMP_GRANULARITIES = ['word', 'segment'] as const;
export type TimestampGranularity = (typeof TIMESTAMP_GRANULARITIES)[number];

/** The largest recording a call may send (OpenAI's limit for the same route). */
export const TRANSCRIPTION_UPLOAD_BYTES = 25 * 1024 * 1024;

export interface TranscriptionAsk {
  /** The recording, held for this call only. */
  audio: Uint8Array;
  container: AudioContainer;
  /** The request member the recording came in (`file`, `input_audio.data`), named by refusals. */
  field: string;
  /** Seconds of audio as its container says, an exact decimal to the microsecond; read before routing (absent only until then). */
  seconds?: string;
  format: TranscriptFormat;
  granularities: TimestampGranularity[];
  language?: string;
  prompt?: string;
  temperature?: number;
  user?: string;
}

/** A caption-bearing format or timestamps need the endpoint's timed segments (OpenAI's `verbose_json`). */
export function needsTimedSegments(ask: Pick<TranscriptionAsk, 'format' | 'granularities'>): boolean {
  return ask.format === 'verbose_json' || ask.format === 'srt' || ask.format === 'vtt' || ask.granularities.length > 0;
}

/** One timed stretch of the transcript; members beyond these are the endpoint's own, passed on. */
export interface TranscriptSegment {
  start: number;
  end: number;
  text: string;
  [member: string]: unknown;
}

export interface TranscriptWord {
  word: string;
  start: number;
  end: number;
}

/** Counts a transcription endpoint reported: seconds (billed by duration) or tokens; undefined where not reported. */
export interface TranscriptionUsage {
  seconds?: number;
  inputTokens?: number;
  /** Of the input: the prompt's text and the audio, where split. */
  inputTextTokens?: number;
  inputAudioTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
}

export interface TranscriptionResult {
  text: string;
  /** As the endpoint names it (`english`), where it says. */
  language?: string;
  /** Seconds, as the endpoint reports them. */
  duration?: number;
  segments?: TranscriptSegment[];
  words?: TranscriptWord[];
  usage: TranscriptionUsage;
  upstreamId?: string;
}

/** A declared list speaks `language` when one entry has its primary subtag (`pt` and `pt-BR` are one language here). */
export function speaksLanguage(declared: readonly string[], language: string): boolean {
  const primary = primaryLanguage(language);
  return declared.some((entry) => primaryLanguage(entry) === primary);
}

/** A language tag's primary subtag, lower case: `pt-BR` → `pt`. */
export function primaryLanguage(tag: string): string {
  return (tag.split('-', 1)[0] ?? tag).toLowerCase();
}

/** `HH:MM:SS` then the milliseconds after `separator` (`,` in SRT, `.` in WebVTT). */
function timestamp(seconds: number, separator: string): string {
  const millis = Math.round(seconds * 1000);
  const pad = (n: number, width = 2): string => String(n).padStart(width, '0');
  const h = Math.floor(millis / 3_600_000);
  const m = Math.floor(millis / 60_000) % 60;
  const s = Math.floor(millis / 1000) % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}${separator}${pad(millis % 1000, 3)}`;
}

type Timed = Pick<TranscriptSegment, 'start' | 'end' | 'text'>;

function cue(segment: Timed, separator: string): string {
  return `${timestamp(segment.start, separator)} --> ${timestamp(segment.end, separator)}\n${segment.text.trim()}\n`;
}

/** Timed segments as SubRip captions: numbered cues, comma before the milliseconds. */
export function srtCaptions(segments: readonly Timed[]): string {
  return segments.map((segment, i) => `${i + 1}\n${cue(segment, ',')}`).join('\n');
}

/** Timed segments as WebVTT captions. */
export function vttCaptions(segments: readonly Timed[]): string {
  return `WEBVTT\n\n${segments.map((segment) => cue(segment, '.')).join('\n')}`;
}
