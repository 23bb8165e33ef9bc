import { encode } from 'gpt-tokenizer';
import { srtCaptions, TRANSCRIPT_FORMATS, vttCaptions, type TranscriptFormat } from '../core/transcription.js';
import type { TranscriptPlan } from './transcript-plan.js';


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
      return { contentType: 'text/plain; charset=utf-8', body: srtCaptions(plan.segments) };
    case 'vtt':
      return { contentType: 'text/plain; charset=utf-8', body: vttCaptions(plan.segments) };
  }
}
