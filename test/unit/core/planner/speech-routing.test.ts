import { describe, expect, test } from 'vitest';
import type { CoreRequest } from '../../../../src/core/request.js';
import type { SpeechAsk } from '../../../../src/core/speech.js';
import { resolveVoice } from '../../../../src/core/speech-voice.js';
import { parseUsd } from '../../../../src/billing/money.js';
import type { GatewayError } from '../../../../src/core/errors.js';
import { catalogueOf, endpoint, model } from '../../../fixtures/planner/catalogue-yaml.js';
import { chatRequest, firstAttempt, refusalOf, rejectionsOf, routedIds } from '../../../fixtures/planner/planning.js';

const speaks = (voices: string[], extra: Record<string, unknown> = {}) => ({
  output_modalities: ['speech'],
  pricing: { character: '0.00001' },
  speech_envelope: { voices, codecs: ['mp3', 'wav'], ...extra },
});

const catalogue = catalogueOf([
  model('acme/tts', [
    endpoint('alpha', speaks(['alloy'], { min_speed: 0.5, max_speed: 2 })),
    endpoint('beta', {
      ...speaks(['nova']),
      supported_parameters: ['seed', 'max_new_tokens'],
      speech_envelope: { voices: ['nova'], codecs: ['wav'], max_new_tokens: 512 },
      supports_voice_cloning: true,
      reference_inputs: { audio: { formats: ['wav'], max_bytes: 1000 } },
    }),
    endpoint('gamma', { pricing: { prompt: '0.000001' } }),
  ]),
]);

function speech(ask: Partial<SpeechAsk>): CoreRequest {
  return chatRequest({ models: ['acme/tts'], messages: [], speech: { input: 'Hello', characters: 5, format: 'wav', ...ask } });
}

const reasonFor = (error: GatewayError, id: string) => rejectionsOf(error).find((rejection) => rejection.endpoint === id)?.reason;

describe('speech routing', () => {
  test.each([
    ['a voice goes only to endpoints declaring it', { voice: 'nova' }, ['beta/acme/tts']],
    ['a codec goes only to endpoints declaring it', { format: 'mp3' as const }, ['alpha/acme/tts']],
    ['a speed goes only where a declared range covers it', { speed: 1.5 }, ['alpha/acme/tts']],
    ['seed needs declared seeded sampling', { seed: 7 }, ['beta/acme/tts']],
    ['max_new_tokens within a narrowed declared range', { maxNewTokens: 512 }, ['beta/acme/tts']],
    ['a sample goes only to cloning endpoints declaring its format', { sample: { data: 'UklG', format: 'wav' as const, bytes: 900 } }, ['beta/acme/tts']],
  ])('%s', (_rule, ask, expected) => {
    expect(routedIds(catalogue, speech(ask))).toEqual(expected);
  });

  test.each([
    [{ speed: 3 }, 'alpha/acme/tts', 'speed 3 outside its range 0.5 to 2'],
    [{ speed: 3.5 }, 'beta/acme/tts', 'declares no speed range'],
    [{ maxNewTokens: 513, seed: 1 }, 'beta/acme/tts', 'max_new_tokens 513 above its limit 512'],
    [{ sample: { data: 'x', format: 'wav' as const, bytes: 1001 } }, 'beta/acme/tts', 'voice samples above 1000 bytes are refused'],
    [{ sample: { data: 'x', format: 'mp3' as const, bytes: 10 } }, 'beta/acme/tts', 'does not accept mp3 voice samples'],
    [{ voice: 'nova', format: 'mp3' as const }, 'beta/acme/tts', 'does not declare the mp3 codec'],
  ])('refusals name the reason (%#)', (ask, id, reason) => {
    expect(reasonFor(refusalOf(catalogue, speech(ask)), id)).toBe(reason);
  });

  test('an endpoint that synthesises no speech is never a candidate', () => {
    expect(reasonFor(refusalOf(catalogue, speech({ speed: 9 })), 'gamma/acme/tts')).toBe('does not synthesise speech');
  });

  test('a chat endpoint producing audio in its replies is not a speech endpoint', () => {
    const chatAudio = catalogueOf([model('acme/tts', [endpoint('alpha', { output_modalities: ['text', 'audio'] })])]);
    expect(rejectionsOf(refusalOf(chatAudio, speech({ voice: 'alloy' })))).toEqual([{ endpoint: 'alpha/acme/tts', reason: 'does not synthesise speech' }]);
  });

  test('a conversation is never routed to a speech endpoint, even one asking for audio output', () => {
    expect(routedIds(catalogue, chatRequest({ models: ['acme/tts'] }))).toEqual(['gamma/acme/tts']);
    const speechOnly = catalogueOf([model('acme/tts', [endpoint('alpha', speaks(['alloy']))])]);
    expect(rejectionsOf(refusalOf(speechOnly, chatRequest({ models: ['acme/tts'] })))).toEqual([{ endpoint: 'alpha/acme/tts', reason: 'serves only speech' }]);
  });

  test('a chat asking for audio output is not served by speech output', () => {
    const both = catalogueOf([model('acme/tts', [endpoint('alpha', { ...speaks(['alloy']), output_modalities: ['text', 'speech'] })])]);
    expect(routedIds(both, chatRequest({ models: ['acme/tts'] }))).toEqual(['alpha/acme/tts']);
    const audioAsked = refusalOf(both, chatRequest({ models: ['acme/tts'], outputModalities: ['text', 'audio'] }));
    expect(rejectionsOf(audioAsked)).toEqual([{ endpoint: 'alpha/acme/tts', reason: 'does not output audio' }]);
  });

  test('the hold covers the characters at the character price, and no output tokens', () => {
    expect(firstAttempt(catalogue, speech({ voice: 'alloy', characters: 120 })).estimatedCost).toBe(parseUsd('0.00001') * 120n);
  });
});

describe('voice resolution', () => {
  const voices = (lists: string[][]) => catalogueOf([model('acme/v', lists.map((list, index) => endpoint(['alpha', 'beta', 'gamma'][index] ?? 'alpha', speaks(list))))]).models.get('acme/v');

  test.each([
    ['rule 1: a declared voice is spoken as asked', [['a', 'b'], ['c']], 'b', { voice: 'b' }],
    ['rule 2: the one voice an endpoint declares alone', [['solo']], 'x', { voice: 'solo', serviceVoice: 'solo' }],
    ['rule 2: a declared default voice', [['default', 'warm']], 'x', { voice: 'default', serviceVoice: 'default' }],
    ['rule 2: one offer across endpoints', [['a', 'b'], ['c']], 'x', { voice: 'c', serviceVoice: 'c' }],
    ['rule 4: no voice named', [['a', 'b']], undefined, {}],
  ])('%s', (_rule, lists, asked, expected) => {
    const entry = voices(lists);
    if (!entry) throw new Error('model missing');
    expect(resolveVoice(entry, asked, false)).toEqual(expected);
  });

  test('rule 3: several offers, or none, is a 400 with metadata.declared_voices', () => {
    for (const lists of [[['a'], ['c']], [['a', 'b']]]) {
      const entry = voices(lists);
      if (!entry) throw new Error('model missing');
      let thrown: unknown;
      try {
        resolveVoice(entry, 'x', false);
      } catch (error) {
        thrown = error;
      }
      expect((thrown as GatewayError).status).toBe(400);
      expect((thrown as GatewayError).metadata.declared_voices).toEqual(lists.flat());
    }
  });

  test('a voice sample overrides the voice: nothing is resolved', () => {
    const entry = voices([['a', 'b']]);
    if (!entry) throw new Error('model missing');
    expect(resolveVoice(entry, 'x', true)).toEqual({});
  });
});
