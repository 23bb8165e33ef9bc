import { SPEECH_FORMATS, SPEECH_LIMITS } from '../core/speech.js';
import { isEmptyList, readReferenceInputs } from './reference-inputs-schema.js';
import { MappingReader } from './mapping-reader.js';
import type { ReferenceInputs, SpeechEnvelope } from './types.js';

const ENVELOPE_FIELDS = ['voices', 'default_voice', 'codecs', 'min_speed', 'max_speed', 'max_new_tokens'];

export interface SpeechDeclarations {
  speechEnvelope: SpeechEnvelope | null;
  supportsVoiceCloning: boolean;
  referenceInputs: ReferenceInputs | null;
}

/**
 * `speech_envelope`, `supports_voice_cloning` and `reference_inputs` (reference-inputs-schema.ts).
 * The first two belong to dedicated text-to-speech endpoints, which declare `speech` among their
 * output modalities and an envelope naming their voices and codecs; voice cloning needs an envelope
 * and the sample formats under `reference_inputs.audio.formats`.
 */
export function readSpeechDeclarations(fields: MappingReader, outputModalities: readonly string[]): SpeechDeclarations {
  const speechEnvelope = readEnvelope(fields);
  checkSpeechOutput(fields, outputModalities);
  const supportsVoiceCloning = fields.boolean('supports_voice_cloning', false);
  const referenceInputs = readReferenceInputs(fields, { outputModalities, supportsVoiceCloning });
  if (supportsVoiceCloning && !speechEnvelope) fields.problem('supports_voice_cloning', 'needs a speech_envelope');
  if (supportsVoiceCloning && !referenceInputs?.audio) fields.problem('supports_voice_cloning', 'needs reference_inputs.audio naming the sample formats');
  return { speechEnvelope, supportsVoiceCloning, referenceInputs };
}

/**
 * A `speech` output needs an envelope (routing matches every request's voice and codec against it),
 * and an envelope needs `speech` output. `audio` output is audio inside a chat reply: an envelope
 * beside it, without `speech`, is a text-to-speech endpoint declared the old way and is told so.
 */
function checkSpeechOutput(fields: MappingReader, outputModalities: readonly string[]): void {
  const declared = fields.has('speech_envelope');
  if (outputModalities.includes('speech')) {
    if (!declared) fields.problem('speech_envelope', 'required when output_modalities include speech (it names the voices and codecs)');
    return;
  }
  if (!declared) return;
  if (outputModalities.includes('audio')) {
    fields.problem('output_modalities', 'a text-to-speech endpoint (one with a speech_envelope) declares speech: audio means audio inside a chat reply');
  } else {
    fields.problem('speech_envelope', 'only for endpoints whose output_modalities include speech');
  }
}

function readEnvelope(fields: MappingReader): SpeechEnvelope | null {
  const envelope = fields.mapping('speech_envelope', ENVELOPE_FIELDS, true);
  if (!envelope) return null;
  const voices = envelope.stringList('voices');
  if (isEmptyList(envelope.raw('voices'))) envelope.problem('voices', 'must name at least one voice');
  const codecs = envelope.stringList('codecs', { allowed: SPEECH_FORMATS });
  if (isEmptyList(envelope.raw('codecs'))) envelope.problem('codecs', 'must name at least one codec');
  const defaultVoice = envelope.optionalString('default_voice');
  if (defaultVoice !== null && !voices.includes(defaultVoice)) envelope.problem('default_voice', 'must be one of voices');
  const { minSpeed, maxSpeed } = readSpeedRange(envelope);
  const maxNewTokens = envelope.optionalInteger('max_new_tokens', { min: 1, max: SPEECH_LIMITS.maxNewTokens });
  return { voices, defaultVoice, codecs, minSpeed, maxSpeed, maxNewTokens };
}

/** `min_speed` and `max_speed`: both or neither, within 0.25 to 4.0, min ≤ max. */
function readSpeedRange(envelope: MappingReader): { minSpeed: number | null; maxSpeed: number | null } {
  const minSpeed = readSpeed(envelope, 'min_speed');
  const maxSpeed = readSpeed(envelope, 'max_speed');
  if (envelope.has('min_speed') !== envelope.has('max_speed')) {
    envelope.problem(envelope.has('min_speed') ? 'max_speed' : 'min_speed', 'min_speed and max_speed are declared together');
    return { minSpeed: null, maxSpeed: null };
  }
  if (minSpeed !== null && maxSpeed !== null && minSpeed > maxSpeed) envelope.problem('max_speed', `must be at least min_speed (${minSpeed})`);
  return { minSpeed, maxSpeed };
}

function readSpeed(envelope: MappingReader, key: string): number | null {
  if (!envelope.has(key)) return null;
  const value = envelope.raw(key);
  if (typeof value !== 'number' || !Number.isFinite(value) || value < SPEECH_LIMITS.minSpeed || value > SPEECH_LIMITS.maxSpeed) {
    envelope.problem(key, `must be a number from ${SPEECH_LIMITS.minSpeed} to ${SPEECH_LIMITS.maxSpeed}`);
    return null;
  }
  return value;
}
