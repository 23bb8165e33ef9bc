import { GatewayError, invalidRequest } from '../../core/errors.js';
import type { CoreRequest } from '../../core/request.js';
import { countCharacters, SPEECH_LIMITS, type SampleFormat, type SpeechAsk, type SpeechFormat, type VoiceSample } from '../../core/speech.js';
import type { HeaderBag } from '../shared/request-headers.js';
import { singleCallRequest } from '../shared/single-call-request.js';
import { detectAudioContainer } from '../../core/audio-container.js';
import type { SpeechRequestBody, VoiceSampleBody } from './schema.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Speech wire → core request. The voice is the one asked for; it is resolved against the model's
 * declarations before routing. A voice sample must be raw base64 of one of the accepted formats,
 * the bytes agreeing with the format named, at most 5 MiB; it is held for this request only.
 */
export function decodeSpeechRequest(body: SpeechRequestBody, headers: HeaderBag): CoreRequest {
  const speech: SpeechAsk = {
    input: body.input,
    characters: countCharacters(body.input),
    format: (body.response_format ?? 'mp3') as SpeechFormat,
  };
  if (body.voice !== undefined) speech.voice = body.voice;
  if (body.speed !== undefined) speech.speed = body.speed;
  if (body.seed !== undefined) speech.seed = body.seed;
  if (body.max_new_tokens !== undefined) speech.maxNewTokens = body.max_new_tokens;
  if (body.instructions !== undefined) speech.instructions = body.instructions;
  const reference = body.input_references?.[0];
  if (reference) speech.sample = readSample(reference);
  return singleCallRequest(body, headers, { speech });
}

function readSample(reference: VoiceSampleBody): VoiceSample {
  const field = 'input_references[0].input_audio';
  const data = reference.input_audio.data;
  const format = reference.input_audio.format as SampleFormat;
  if (data.startsWith('data:')) throw invalidRequest(`${field}.data`, 'must be raw base64, without a data-URL prefix');
  if (data.length % 4 !== 0 || !BASE64.test(data)) throw invalidRequest(`${field}.data`, 'must be base64');
  const bytes = Buffer.from(data, 'base64');
  if (bytes.length > SPEECH_LIMITS.sampleBytes) throw sampleTooLarge(`${field}.data`);
  const detected = detectAudioContainer(bytes);
  if (detected !== format) {
    throw invalidRequest(`${field}.format`, detected ? `the sample is ${detected}, not ${format}` : 'the sample is not WAV, MP3, FLAC, OGG, M4A or WebM');
  }
  const sample: VoiceSample = { data, format, bytes: bytes.length };
  if (reference.transcript !== undefined) sample.transcript = reference.transcript;
  return sample;
}

export function sampleTooLarge(field: string): GatewayError {
  return new GatewayError('payload_too_large', `${field}: the voice sample is larger than 5 MiB`, { metadata: { field } });
}
