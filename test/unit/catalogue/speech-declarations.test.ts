import { describe, expect, test } from 'vitest';
import { validateCatalogue } from '../../../src/catalogue/catalogue-schema.js';
import { loadCatalogueFile } from '../../../src/catalogue/loader.js';
import { catalogueDocument, endpointDocument, providerDocument, endpointProblems as problemsOf, loadedEndpoint as endpointOf } from '../../fixtures/catalogue/documents.js';

const at = 'models[0].endpoints[0]';
const speaks = { output_modalities: ['speech'] };
const envelope = { voices: ['alloy'], codecs: ['mp3'] };

describe('speech declarations', () => {
  test('an endpoint declaring none produces no speech and clones no voice', () => {
    const endpoint = endpointOf({});
    expect(endpoint.speechEnvelope).toBeNull();
    expect(endpoint.supportsVoiceCloning).toBe(false);
    expect(endpoint.referenceInputs).toBeNull();
  });

  test('the envelope, cloning and reference inputs are read with the spec names', () => {
    const endpoint = endpointOf({
      ...speaks,
      speech_envelope: { voices: ['alloy', 'default'], default_voice: 'default', codecs: ['mp3', 'wav'], min_speed: 0.5, max_speed: 2, max_new_tokens: 2048 },
      supports_voice_cloning: true,
      reference_inputs: { audio: { formats: ['wav', 'flac'], max_bytes: 1_000_000 } },
    });
    expect(endpoint.speechEnvelope).toEqual({ voices: ['alloy', 'default'], defaultVoice: 'default', codecs: ['mp3', 'wav'], minSpeed: 0.5, maxSpeed: 2, maxNewTokens: 2048 });
    expect(endpoint.supportsVoiceCloning).toBe(true);
    expect(endpoint.referenceInputs).toEqual({ audio: { formats: ['wav', 'flac'], roles: ['reference'], maxBytes: 1_000_000 }, image: null });
  });

  test('every problem is named by its path', () => {
    expect(problemsOf({
      ...speaks,
      speech_envelope: { voices: [], codecs: ['mp3', 'ogg'], min_speed: 0.1, pitch: 1, default_voice: 'nova', max_new_tokens: 5000 },
      supports_voice_cloning: 'yes',
    })).toEqual([
      `${at}.speech_envelope.pitch: unknown field`,
      `${at}.speech_envelope.voices: must name at least one voice`,
      `${at}.speech_envelope.codecs[1]: must be one of mp3, wav, pcm, opus, flac, aac, mulaw, alaw`,
      `${at}.speech_envelope.default_voice: must be one of voices`,
      `${at}.speech_envelope.min_speed: must be a number from 0.25 to 4`,
      `${at}.speech_envelope.max_speed: min_speed and max_speed are declared together`,
      `${at}.speech_envelope.max_new_tokens: must be at most 4096`,
      `${at}.supports_voice_cloning: must be true or false`,
    ]);
  });

  test('speed range bounds are ordered; cloning needs an envelope and sample formats', () => {
    expect(problemsOf({ ...speaks, speech_envelope: { voices: ['a'], codecs: ['wav'], min_speed: 2, max_speed: 1 } }))
      .toEqual([`${at}.speech_envelope.max_speed: must be at least min_speed (2)`]);
    expect(problemsOf({ ...speaks, supports_voice_cloning: true })).toEqual([
      `${at}.speech_envelope: required when output_modalities include speech (it names the voices and codecs)`,
      `${at}.supports_voice_cloning: needs a speech_envelope`,
      `${at}.supports_voice_cloning: needs reference_inputs.audio naming the sample formats`,
    ]);
    expect(problemsOf({ ...speaks, speech_envelope: { voices: ['a'], codecs: ['wav'] }, reference_inputs: { audio: { formats: ['aiff'], roles: ['target'] } } })).toEqual([
      `${at}.reference_inputs.audio.formats[0]: must be one of wav, mp3, flac, ogg, m4a, webm`,
      `${at}.reference_inputs.audio.roles[0]: must be one of reference`,
      `${at}.reference_inputs.audio: only with supports_voice_cloning: true`,
    ]);
  });

  test('a catalogue file declaring a speech endpoint loads', async () => {
    const result = await loadCatalogueFile('test/fixtures/catalogue/valid.yaml');
    if (!result.ok) throw new Error(JSON.stringify(result.problems));
    const voice = result.catalogue.endpoints.get('sim-alpha/acme/voice');
    expect(voice?.outputModalities).toEqual(['speech']);
    expect(voice?.speechEnvelope).toEqual({ voices: ['alloy', 'default'], defaultVoice: 'default', codecs: ['mp3', 'wav'], minSpeed: 0.5, maxSpeed: 2, maxNewTokens: null });
  });

  test('speech output is read as its own modality, apart from audio', () => {
    const endpoint = endpointOf({ ...speaks, speech_envelope: envelope });
    expect(endpoint.outputModalities).toEqual(['speech']);
    expect(endpointOf({ output_modalities: ['text', 'audio'] }).outputModalities).toEqual(['text', 'audio']);
  });

  test('speech output needs a speech_envelope naming the voices and codecs', () => {
    expect(problemsOf(speaks)).toEqual([
      `${at}.speech_envelope: required when output_modalities include speech (it names the voices and codecs)`,
    ]);
  });

  test('a speech_envelope on an endpoint that does not output speech is a problem naming it', () => {
    expect(problemsOf({ speech_envelope: envelope })).toEqual([
      `${at}.speech_envelope: only for endpoints whose output_modalities include speech`,
    ]);
  });

  test('a speech endpoint declared with audio output is told to declare speech', () => {
    for (const outputs of [['audio'], ['text', 'audio']]) {
      expect(problemsOf({ output_modalities: outputs, speech_envelope: envelope })).toEqual([
        `${at}.output_modalities: a text-to-speech endpoint (one with a speech_envelope) declares speech: audio means audio inside a chat reply`,
      ]);
    }
  });

  test('speech is an output modality only', () => {
    expect(problemsOf({ input_modalities: ['speech'] })).toEqual([
      `${at}.input_modalities[0]: must be one of text, image, file, audio, video, embeddings, rerank, mesh`,
    ]);
  });

  test('speech is served only over the openai wire', () => {
    const document = catalogueDocument([endpointDocument({ ...speaks, speech_envelope: envelope })]);
    document.providers = [{ ...providerDocument(), api: 'anthropic' }];
    const result = validateCatalogue(document, 0);
    expect(result.ok ? [] : result.problems.map((problem) => `${problem.path}: ${problem.message}`)).toEqual([
      `${at}.output_modalities: speech is not served over the anthropic wire format of provider "sim-alpha" (use openai)`,
    ]);
  });
});
