import { encode } from 'gpt-tokenizer';
import type { TranscriptPlan, TranscriptSegment } from './transcript-plan.js';

/** The response formats of `POST /v1/audio/transcriptions`. */
export const TRANSCRIPT_FORMATS = ['json', 'text', 'srt', 'verbose_json', 'vtt'] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

export function isTranscriptFormat(value: unknown): value is TranscriptFormat {
  return TRANSCRIPT_FORMATS.some((format) => format === value);
}

/** ISO-639-1 codes to the names verbose_json reports; other codes are reported as given. */
const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  en: 'english', fr: 'french', de: 'german', es: 'spanish', it: 'italian', pt: 'portuguese', nl: 'dutch', ja: 'japanese',
};

export interface TranscriptReply {
  contentType: string;
  body: string;
}

export interface TranscriptRender {
  plan: TranscriptPlan;
  format: TranscriptFormat;
  /** The `usage` member of the json and verbose_json bodies; undefined = none. */
  usage: Record<string, unknown> | undefined;
  /** ISO-639-1 code the request named; undefined = English, as detected. */
  language: string | undefined;
  granularities: readonly string[];
  temperature: number;
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

function cue(segment: TranscriptSegment, separator: string): string {
  return `${timestamp(segment.start, separator)} --> ${timestamp(segment.end, separator)}\n${segment.text.trim()}\n`;
}

function srt(plan: TranscriptPlan): string {
  return plan.segments.map((segment, i) => `${i + 1}\n${cue(segment, ',')}`).join('\n');
}

function vtt(plan: TranscriptPlan): string {
  return `WEBVTT\n\n${plan.segments.map((segment) => cue(segment, '.')).join('\n')}`;
}

/** Whisper's verbose reply: segments unless only word timestamps were asked, words when asked. */
function verbose(render: TranscriptRender): Record<string, unknown> {
  const { plan, granularities } = render;
  const withSegments = granularities.length === 0 || granularities.includes('segment');
  const code = render.language ?? 'en';
  return {
    task: 'transcribe',
    language: LANGUAGE_NAMES[code] ?? code,
    duration: plan.duration,
    text: plan.text,
    ...(granularities.includes('word') && { words: plan.words }),
    ...(withSegments && {
      segments: plan.segments.map((segment) => ({
        id: segment.id, seek: 0, start: segment.start, end: segment.end, text: segment.text, tokens: encode(segment.text),
        temperature: render.temperature, avg_logprob: -0.25, compression_ratio: 1.2, no_speech_prob: 0.01,
      })),
    }),
    ...(render.usage && { usage: render.usage }),
  };
}

/** The reply body in the asked format: JSON for json and verbose_json, plain text for the rest. */
export function renderTranscript(render: TranscriptRender): TranscriptReply {
  const { plan } = render;
  switch (render.format) {
    case 'json':
      return { contentType: 'application/json', body: JSON.stringify({ text: plan.text, ...(render.usage && { usage: render.usage }) }) };
    case 'verbose_json':
      return { contentType: 'application/json', body: JSON.stringify(verbose(render)) };
    case 'text':
      return { contentType: 'text/plain; charset=utf-8', body: `${plan.text}\n` };
    case 'srt':
      return { contentType: 'text/plain; charset=utf-8', body: srt(plan) };
    case 'vtt':
      return { contentType: 'text/plain; charset=utf-8', body: vtt(plan) };
  }
}
