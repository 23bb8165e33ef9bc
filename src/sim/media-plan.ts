import type { ImageBehaviour } from './behaviour.js';
import { buildPng } from './png-image.js';
import { buildWav } from './wav-audio.js';

/** Generated audio, as OpenAI's `message.audio` carries it. */
export interface AudioPlan {
  id: string;
  /** Base64 of a WAV file. */
  data: string;
  /** Unix seconds after which the provider would forget the audio. */
  expiresAt: number;
}

const AUDIO_LIFETIME_SECONDS = 3600;

/** The picture's URL: a PNG data URL, or the configured https URL unchanged. */
export function imageUrlOf(image: ImageBehaviour): string {
  if (image.kind === 'url') return image.url;
  return `data:image/png;base64,${buildPng(image.width, image.height).toString('base64')}`;
}

export interface AudioInput {
  seconds: number;
  sequence: number;
  /** Unix seconds the reply was created. */
  created: number;
}

export function planAudio({ seconds, sequence, created }: AudioInput): AudioPlan {
  return {
    id: `audio_sim${sequence}`,
    data: buildWav(seconds).toString('base64'),
    expiresAt: created + AUDIO_LIFETIME_SECONDS,
  };
}

/**
 * The base64 text cut into `count` slices at multiples of 4 characters, so each slice decodes
 * on its own; trailing slices are empty when there are fewer 4-character groups than slices.
 */
export function sliceBase64(data: string, count: number): string[] {
  const groups = Math.ceil(data.length / 4);
  const size = Math.max(1, Math.ceil(groups / Math.max(1, count))) * 4;
  return Array.from({ length: Math.max(1, count) }, (_, i) => data.slice(i * size, (i + 1) * size));
}
