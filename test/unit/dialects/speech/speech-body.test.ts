import { describe, expect, test } from 'vitest';
import { detectAudioContainer } from '../../../../src/core/audio-container.js';
import { multipartToBody } from '../../../../src/dialects/speech/multipart-body.js';
import { decodeSpeechRequest } from '../../../../src/dialects/speech/decode.js';
import type { SpeechRequestBody } from '../../../../src/dialects/speech/schema.js';
import { buildWav } from '../../../../src/sim/wav-audio.js';
import { encodeSilence } from '../../../../src/sim/speech-audio.js';

const bytes = (...values: (number | string)[]) => Buffer.concat(values.map((value) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from([value]))));

describe('voice sample formats read from bytes', () => {
  test.each([
    ['wav', buildWav(0.01)],
    ['mp3', encodeSilence('mp3', 0.1)],
    ['mp3', bytes('ID3', 4, 0)],
    ['flac', bytes('fLaC', 0)],
    ['ogg', bytes('OggS', 0)],
    ['m4a', bytes(0, 0, 0, 32, 'ftypM4A ')],
    ['webm', bytes(0x1a, 0x45, 0xdf, 0xa3, 0)],
  ])('%s', (format, sample) => {
    expect(detectAudioContainer(sample)).toBe(format);
  });

  test('anything else is no accepted format', () => {
    expect(detectAudioContainer(Buffer.from('hello world'))).toBeUndefined();
    expect(detectAudioContainer(Buffer.alloc(0))).toBeUndefined();
  });
});

describe('multipart form → JSON body', () => {
  test('numbers parsed, provider decoded, the file and transcript become the one input reference', () => {
    const sample = buildWav(0.01);
    expect(multipartToBody({ model: 'm', input: 'hi', speed: '1.5', seed: '7', provider: '{"only":["a"]}', file: sample, transcript: 'hi there' })).toEqual({
      model: 'm', input: 'hi', speed: 1.5, seed: 7, provider: { only: ['a'] },
      input_references: [{ type: 'input_audio', input_audio: { data: sample.toString('base64'), format: 'wav' }, transcript: 'hi there' }],
    });
  });

  test('a speed that is no number is left for the schema to name', () => {
    expect(multipartToBody({ speed: 'fast' }).speed).toBe('fast');
  });

  test('a transcript without a file, a non-JSON provider and a text file are 400s naming them', () => {
    expect(() => multipartToBody({ transcript: 'x' })).toThrow(/^transcript: /);
    expect(() => multipartToBody({ provider: '[1]' })).toThrow(/^provider: /);
    expect(() => multipartToBody({ file: 'not a buffer' })).toThrow(/^file: /);
  });
});

describe('speech decode', () => {
  test('characters are counted before sending; the format defaults to mp3', () => {
    const request = decodeSpeechRequest({ model: 'm', input: 'añb 👋' } as SpeechRequestBody, {});
    expect(request.speech).toEqual({ input: 'añb 👋', characters: 5, format: 'mp3' });
    expect(request.messages).toEqual([]);
  });

  test('a sample larger than 5 MiB is a 413 naming it', () => {
    const big = Buffer.concat([buildWav(0.01), Buffer.alloc(5 * 1024 * 1024)]).toString('base64');
    expect(() => decodeSpeechRequest({ model: 'm', input: 'x', input_references: [{ type: 'input_audio', input_audio: { data: big, format: 'wav' } }] } as SpeechRequestBody, {}))
      .toThrow(expect.objectContaining({ status: 413, message: expect.stringMatching(/^input_references\[0\]\.input_audio\.data/) as unknown }) as Error);
  });
});
