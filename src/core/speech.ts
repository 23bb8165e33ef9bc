import { AUDIO_CONTAINERS, type AudioContainer } from './audio-container.js';

/**
 * Text to speech: what a speech request asks of an endpoint. It rides on the core request
 * (`CoreRequest.speech`) so that routing, holds and settlement are the ones every route shares.
 */

/** Codecs a reply may be encoded in (`response_format`), with the content type each is sent under. */
export const SPEECH_CONTENT_TYPES = {
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  pcm: 'audio/pcm',
  opus: 'audio/ogg; codecs=opus',
  flac: 'audio/flac',
  aac: 'audio/aac',
  mulaw: 'audio/basic',
  alaw: 'audio/x-alaw-basic',
} as const satisfies Record<string, string>;

export const SPEECH_FORMATS = ['mp3', 'wav', 'pcm', 'opus', 'flac', 'aac', 'mulaw', 'alaw'] as const satisfies readonly (keyof typeof SPEECH_CONTENT_TYPES)[];
export type SpeechFormat = (typeof SPEECH_FORMATS)[number];

/** Containers a voice sample may come in. */
export const SAMPLE_FORMATS = AUDIO_CONTAINERS;
export type SampleFormat = AudioContainer;

/** Limits of the speech route (spec 01). */
export const SPEECH_LIMITS = {
  inputCharacters: 15_000,
  sampleBytes: 5 * 1024 * 1024,
  minSpeed: 0.25,
  maxSpeed: 4,
  maxSeed: 2_147_483_647,
  maxNewTokens: 4096,
} as const;

/** A voice to imitate, for this request only; never stored. */
export interface VoiceSample {
  /** Raw base64 of the recording. */
  data: string;
  format: SampleFormat;
  /** Decoded size, judged against an endpoint's declared limit. */
  bytes: number;
  transcript?: string;
}

export interface SpeechAsk {
  input: string;
  /** Input characters (Unicode code points), counted before sending: the billed quantity. */
  characters: number;
  /** The voice to speak, after resolution; undefined = the endpoint's own default. */
  voice?: string;
  format: SpeechFormat;
  speed?: number;
  seed?: number;
  maxNewTokens?: number;
  instructions?: string;
  sample?: VoiceSample;
}

/** Input characters as billed: Unicode code points, so a character outside the BMP counts once. */
export function countCharacters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
