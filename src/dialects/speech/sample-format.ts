import type { SampleFormat } from '../../core/speech.js';

/**
 * The container of a voice sample, read from its first bytes: WAV (`RIFF….WAVE`), FLAC (`fLaC`),
 * OGG (`OggS`), WebM (EBML header), M4A (`ftyp` box), MP3 (ID3 tag or an MPEG audio frame sync).
 * Undefined when it is none of the accepted formats.
 */
export function detectSampleFormat(bytes: Uint8Array): SampleFormat | undefined {
  const ascii = (start: number, end: number) => Buffer.from(bytes.subarray(start, end)).toString('latin1');
  if (ascii(0, 4) === 'RIFF' && ascii(8, 12) === 'WAVE') return 'wav';
  if (ascii(0, 4) === 'fLaC') return 'flac';
  if (ascii(0, 4) === 'OggS') return 'ogg';
  if (bytes[0] === 0x1a && bytes[1] === 0x45 && bytes[2] === 0xdf && bytes[3] === 0xa3) return 'webm';
  if (ascii(4, 8) === 'ftyp') return 'm4a';
  if (ascii(0, 3) === 'ID3') return 'mp3';
  if (bytes[0] === 0xff && ((bytes[1] ?? 0) & 0xe0) === 0xe0) return 'mp3';
  return undefined;
}
