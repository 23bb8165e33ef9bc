/** Media types ↔ the container names endpoints declare (`png`, `wav`, `mp3`, `pdf`, …). */

const CONTAINER_BY_SUBTYPE: Record<string, string> = {
  jpg: 'jpeg',
  mpeg: 'mp3',
  mp3: 'mp3',
  'x-wav': 'wav',
  wave: 'wav',
  'x-flac': 'flac',
  'x-m4a': 'm4a',
  mp4a: 'm4a',
};

export interface DataUrl {
  mediaType: string;
  base64: boolean;
  data: string;
}

const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*),/;

/** Splits a `data:` URL; undefined for any other URL. */
export function parseDataUrl(url: string): DataUrl | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return {
    mediaType: (match[1] ?? '').toLowerCase(),
    base64: (match[2] ?? '').includes(';base64'),
    data: url.slice(match[0].length),
  };
}

/** The container a media type names: `image/png` → `png`, `audio/mpeg` → `mp3`. */
export function containerOf(mediaType: string): string | undefined {
  const subtype = mediaType.split('/')[1]?.split('+')[0];
  if (!subtype) return undefined;
  return CONTAINER_BY_SUBTYPE[subtype] ?? subtype;
}

/** The container a file name's extension names. */
export function containerOfFilename(filename: string): string | undefined {
  const extension = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase();
  return extension ? (CONTAINER_BY_SUBTYPE[extension] ?? extension) : undefined;
}

const AUDIO_MEDIA_TYPES: Record<string, string> = { mp3: 'audio/mpeg', wav: 'audio/wav', pcm16: 'audio/pcm' };

/** The media type for an `input_audio.format`. */
export function audioMediaType(format: string): string {
  return AUDIO_MEDIA_TYPES[format] ?? `audio/${format}`;
}
