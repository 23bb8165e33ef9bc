/** Containers an uploaded recording may come in (a voice sample, audio to transcribe). */
export const AUDIO_CONTAINERS = ['wav', 'mp3', 'flac', 'ogg', 'm4a', 'webm'] as const;
export type AudioContainer = (typeof AUDIO_CONTAINERS)[number];

/** The media type each container is sent under. */
export const AUDIO_CONTAINER_TYPES: Readonly<Record<AudioContainer, string>> = {
  wav: 'audio/wav',
  mp3: 'audio/mpeg',
  flac: 'audio/flac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  webm: 'audio/webm',
};

/**
 * The container of a recording, read from its first bytes: WAV (`RIFF….WAVE`), FLAC (`fLaC`),
 * OGG (`OggS`), WebM (EBML header), M4A (`ftyp` box), MP3 (ID3 tag or an MPEG audio frame sync of
 * layer I, II or III).
 * Undefined when it is none of the accepted containers.
 */
export function detectAudioContainer(bytes: Uint8Array): AudioContainer | undefined {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'webm';
  if (ascii(4, 8) === 'ftyp') return 'm4a';
  if (ascii(0, 3) === 'ID3') return 'mp3';
  // an MPEG audio frame sync names its layer; layer bits 00 are ADTS (AAC), which is not accepted
  if (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0 && ((bytes[1] ?? 0) & 0x06) !== 0) return 'mp3';
  return undefined;
}
