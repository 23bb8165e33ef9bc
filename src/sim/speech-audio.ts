import { buildWav, WAV_SAMPLE_RATE } from './wav-audio.js';

/** Codecs the simulator encodes validly; it refuses the others as an endpoint without them would. */
export const SIM_SPEECH_CODECS = ['mp3', 'wav', 'pcm', 'mulaw', 'alaw'] as const;
export type SimSpeechCodec = (typeof SIM_SPEECH_CODECS)[number];

/** OpenAI's `pcm`: raw 16-bit little-endian mono samples at 24 kHz. */
export const PCM_SAMPLE_RATE = 24_000;
/** G.711 (mu-law, A-law) at telephone rate. */
const G711_SAMPLE_RATE = 8000;
/** G.711 code words of silence. */
const MULAW_SILENCE = 0xff;
const ALAW_SILENCE = 0xd5;

/** MPEG-1 Layer III, 128 kbit/s, 44.1 kHz, mono, no CRC, no padding: 417 bytes and 1152 samples a frame. */
const MP3_FRAME_HEADER = [0xff, 0xfb, 0x90, 0xc0] as const;
const MP3_FRAME_BYTES = 417;
const MP3_SAMPLES_PER_FRAME = 1152;
const MP3_SAMPLE_RATE = 44_100;

/**
 * `seconds` of silence in `codec`. The MP3 is a run of frames whose side information is all zero,
 * so every granule carries no Huffman data and decodes to silence.
 */
export function encodeSilence(codec: SimSpeechCodec, seconds: number): Buffer {
  switch (codec) {
    case 'wav':
      return buildWav(seconds);
    case 'pcm':
      return Buffer.alloc(Math.round(seconds * PCM_SAMPLE_RATE) * 2);
    case 'mulaw':
      return Buffer.alloc(Math.round(seconds * G711_SAMPLE_RATE), MULAW_SILENCE);
    case 'alaw':
      return Buffer.alloc(Math.round(seconds * G711_SAMPLE_RATE), ALAW_SILENCE);
    case 'mp3':
      return mp3Silence(seconds);
  }
}

function mp3Silence(seconds: number): Buffer {
  const frames = Math.max(1, Math.round((seconds * MP3_SAMPLE_RATE) / MP3_SAMPLES_PER_FRAME));
  const audio = Buffer.alloc(frames * MP3_FRAME_BYTES);
  for (let frame = 0; frame < frames; frame += 1) Buffer.from(MP3_FRAME_HEADER).copy(audio, frame * MP3_FRAME_BYTES);
  return audio;
}

export function isSimSpeechCodec(value: unknown): value is SimSpeechCodec {
  return SIM_SPEECH_CODECS.some((codec) => codec === value);
}

export { WAV_SAMPLE_RATE };
