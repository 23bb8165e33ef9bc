import { describe, expect, test } from 'vitest';
import type { TranscriptionAsk, TranscriptionResult, TranscriptSegment } from '../../../../src/core/transcription.js';
import { srtCaptions, vttCaptions } from '../../../../src/core/transcription.js';
import type { ReplyMeta } from '../../../../src/dialects/shared/reply-meta.js';
import { encodeTranscriptionReply } from '../../../../src/dialects/transcriptions/encode.js';

const META: ReplyMeta = { id: 'gen-1', created: 1_750_000_000, model: 'acme/whisper', provider: 'Provider alpha' };

const SEGMENTS: TranscriptSegment[] = [
  { id: 0, start: 0, end: 1.5, text: ' Hello there.' },
  { id: 1, start: 1.5, end: 3.25, text: ' General Kenobi. ' },
];

function ask(extra: Partial<TranscriptionAsk> = {}): TranscriptionAsk {
  return { audio: new Uint8Array(0), container: 'wav', field: 'file', seconds: '3.250000', format: 'json', granularities: [], ...extra };
}

function result(extra: Partial<TranscriptionResult> = {}): TranscriptionResult {
  return { text: 'Hello there. General Kenobi.', usage: {}, ...extra };
}

const encode = (asked: Partial<TranscriptionAsk>, answered: Partial<TranscriptionResult> = {}, cost = 0.000325) =>
  encodeTranscriptionReply(result(answered), META, ask(asked), cost);

describe('transcription reply formats', () => {
  test('json is the text and the usage: the seconds billed and the cost when no tokens were reported', () => {
    expect(encode({ format: 'json' })).toEqual({ text: 'Hello there. General Kenobi.', usage: { type: 'duration', seconds: 3.25, cost: 0.000325 } });
  });

  test('the seconds in usage are the ones read from the recording, not the endpoint\'s', () => {
    expect(encode({ format: 'json', seconds: '2.250000' }, { usage: { seconds: 3 } })).toMatchObject({ usage: { type: 'duration', seconds: 2.25 } });
  });

  test('reported tokens make the usage tokens, with the input split and the cost', () => {
    expect(encode({ format: 'json' }, { usage: { inputTokens: 40, inputTextTokens: 5, inputAudioTokens: 35, outputTokens: 12, totalTokens: 52 } }, 0.00022)).toEqual({
      text: 'Hello there. General Kenobi.',
      usage: { type: 'tokens', input_tokens: 40, input_token_details: { text_tokens: 5, audio_tokens: 35 }, output_tokens: 12, total_tokens: 52, cost: 0.00022 },
    });
  });

  test('without a reported split or total, no details and the total is input plus output', () => {
    expect(encode({ format: 'json' }, { usage: { inputTokens: 40, outputTokens: 12 } })).toEqual({
      text: 'Hello there. General Kenobi.',
      usage: { type: 'tokens', input_tokens: 40, output_tokens: 12, total_tokens: 52, cost: 0.000325 },
    });
  });

  test('output tokens alone are still usage by tokens, input counted 0', () => {
    expect(encode({ format: 'json' }, { usage: { outputTokens: 7 } })).toMatchObject({ usage: { type: 'tokens', input_tokens: 0, output_tokens: 7, total_tokens: 7 } });
  });

  test('verbose_json carries task, language, duration, text, segments, words and usage', () => {
    const words = [{ word: 'Hello', start: 0, end: 0.6 }];
    expect(encode({ format: 'verbose_json', granularities: ['word', 'segment'] }, { language: 'english', duration: 3.2, segments: SEGMENTS, words })).toEqual({
      task: 'transcribe',
      language: 'english',
      duration: 3.2,
      text: 'Hello there. General Kenobi.',
      segments: SEGMENTS,
      words,
      usage: { type: 'duration', seconds: 3.25, cost: 0.000325 },
    });
  });

  test('verbose_json without the endpoint\'s language and duration: the language asked and the seconds read; no segments or words members', () => {
    const reply = encode({ format: 'verbose_json', language: 'en' }) as Record<string, unknown>;
    expect(reply).toMatchObject({ language: 'en', duration: 3.25 });
    expect(reply).not.toHaveProperty('segments');
    expect(reply).not.toHaveProperty('words');
    expect(encode({ format: 'verbose_json' })).toMatchObject({ language: null });
  });

  test('text is the transcript and a newline', () => {
    expect(encode({ format: 'text' })).toBe('Hello there. General Kenobi.\n');
  });

  test('srt: numbered cues, a comma before the milliseconds, text trimmed, a blank line between cues', () => {
    expect(encode({ format: 'srt' }, { segments: SEGMENTS })).toBe(
      '1\n00:00:00,000 --> 00:00:01,500\nHello there.\n\n2\n00:00:01,500 --> 00:00:03,250\nGeneral Kenobi.\n',
    );
  });

  test('vtt: the WEBVTT header, unnumbered cues, a dot before the milliseconds', () => {
    expect(encode({ format: 'vtt' }, { segments: SEGMENTS })).toBe(
      'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello there.\n\n00:00:01.500 --> 00:00:03.250\nGeneral Kenobi.\n',
    );
  });
});

describe('caption timestamps', () => {
  test('hours, minutes, seconds and milliseconds are each carried into their own place', () => {
    expect(srtCaptions([{ start: 3725.004, end: 36_000.5, text: 'x' }])).toBe('1\n01:02:05,004 --> 10:00:00,500\nx\n');
  });

  test('milliseconds are rounded, carrying into the second', () => {
    expect(vttCaptions([{ start: 0.0004, end: 59.9996, text: 'x' }])).toBe('WEBVTT\n\n00:00:00.000 --> 00:01:00.000\nx\n');
  });
});
