import type { EndpointEntry, SpeechEnvelope } from '../../catalogue/types.js';
import type { SpeechAsk } from '../speech.js';
import type { EligibilityRule } from './eligibility-rule.js';

type SpeechCheck = (endpoint: EndpointEntry, envelope: SpeechEnvelope, ask: SpeechAsk) => string | null;

/**
 * A speech request goes only to speech endpoints: `speech` output and a declared envelope. An
 * endpoint with `audio` output produces audio inside chat replies and is not one.
 */
const synthesisesSpeech: EligibilityRule = ({ endpoint, input }) => {
  if (!input.request.speech) return null;
  return endpoint.speechEnvelope && endpoint.outputModalities.includes('speech') ? null : 'does not synthesise speech';
};

const voiceDeclared: SpeechCheck = (_endpoint, envelope, ask) =>
  ask.voice === undefined || ask.sample || envelope.voices.includes(ask.voice) ? null : `does not declare the voice ${ask.voice}`;

const codecDeclared: SpeechCheck = (_endpoint, envelope, ask) =>
  envelope.codecs.includes(ask.format) ? null : `does not declare the ${ask.format} codec`;

/** A speed goes only where a declared range covers it. */
const speedCovered: SpeechCheck = (_endpoint, envelope, ask) => {
  if (ask.speed === undefined) return null;
  if (envelope.minSpeed === null || envelope.maxSpeed === null) return 'declares no speed range';
  return ask.speed >= envelope.minSpeed && ask.speed <= envelope.maxSpeed
    ? null
    : `speed ${ask.speed} outside its range ${envelope.minSpeed} to ${envelope.maxSpeed}`;
};

/** `seed` needs declared seeded sampling; `max_new_tokens` a declaration and, where narrowed, its bound. */
const settingsDeclared: SpeechCheck = (endpoint, envelope, ask) => {
  if (ask.seed !== undefined && !endpoint.supportedParameters.has('seed')) return 'does not declare seed';
  if (ask.maxNewTokens === undefined) return null;
  if (!endpoint.supportedParameters.has('max_new_tokens')) return 'does not declare max_new_tokens';
  return envelope.maxNewTokens !== null && ask.maxNewTokens > envelope.maxNewTokens
    ? `max_new_tokens ${ask.maxNewTokens} above its limit ${envelope.maxNewTokens}`
    : null;
};

/** A voice sample goes only to endpoints declaring voice cloning and the sample's format and size. */
const cloningDeclared: SpeechCheck = (endpoint, _envelope, ask) => {
  const sample = ask.sample;
  if (!sample) return null;
  const reference = endpoint.referenceInputs?.audio;
  if (!endpoint.supportsVoiceCloning || !reference) return 'does not support voice cloning';
  if (!reference.formats.includes(sample.format)) return `does not accept ${sample.format} voice samples`;
  return reference.maxBytes !== null && sample.bytes > reference.maxBytes
    ? `voice samples above ${reference.maxBytes} bytes are refused`
    : null;
};

const SPEECH_CHECKS: readonly SpeechCheck[] = [voiceDeclared, codecDeclared, speedCovered, settingsDeclared, cloningDeclared];

const speechDeclarations: EligibilityRule = ({ endpoint, input }) => {
  const ask = input.request.speech;
  const envelope = endpoint.speechEnvelope;
  if (!ask || !envelope) return null;
  for (const check of SPEECH_CHECKS) {
    const reason = check(endpoint, envelope, ask);
    if (reason) return reason;
  }
  return null;
};

export const SPEECH_RULES: readonly EligibilityRule[] = [synthesisesSpeech, speechDeclarations];
