import { describe, expect, test } from 'vitest';
import type { GatewayError } from '../../../../src/core/errors.js';
import { TRANSCRIPTION_UPLOAD_BYTES } from '../../../../src/core/transcription.js';
import { transcriptionFormToBody } from '../../../../src/dialects/transcriptions/form-body.js';
import { UploadedAudio } from '../../../../src/dialects/transcriptions/uploaded-audio.js';
import { DIALECTS } from '../../../../src/inference/dialects.js';
import { encodeSilence } from '../../../../src/sim/speech-audio.js';
import { buildWav } from '../../../../src/sim/wav-audio.js';

const WAV = buildWav(0.5);
const WAV64 = WAV.toString('base64');

function admit(body: Record<string, unknown>) {
  return DIALECTS.transcriptions.admit(body, {});
}

function admitted(body: Record<string, unknown>) {
  const admission = admit(body);
  if (!admission.ok) throw new Error(`refused: ${admission.error.message}`);
  return admission.value;
}

function refusal(body: Record<string, unknown>): GatewayError {
  const admission = admit(body);
  if (admission.ok) throw new Error('expected a refusal');
  return admission.error;
}

/** A 400 naming `field`, its message starting with the field. */
function expectRefusedNaming(body: Record<string, unknown>, field: string, status = 400): void {
  const error = refusal(body);
  expect({ status: error.status, field: error.metadata.field }).toEqual({ status, field });
  expect(error.message.startsWith(`${field}: `)).toBe(true);
}

const json = (extra: Record<string, unknown> = {}) => ({ model: 'acme/whisper', input_audio: { data: WAV64, format: 'wav' }, ...extra });
const form = (extra: Record<string, unknown> = {}) => ({ model: 'acme/whisper', file: new UploadedAudio(WAV), ...extra });

describe('transcription body: the recording as input_audio', () => {
  test('raw base64 in the container it names is admitted, its bytes the recording', () => {
    const { ask } = admitted(json());
    expect(Buffer.from(ask.audio).equals(WAV)).toBe(true);
    expect(ask).toMatchObject({ container: 'wav', field: 'input_audio.data' });
  });

  test('a format other than the bytes\' container is a 400 naming input_audio.format', () => {
    expectRefusedNaming(json({ input_audio: { data: WAV64, format: 'mp3' } }), 'input_audio.format');
    const mp3 = encodeSilence('mp3', 0.1).toString('base64');
    expectRefusedNaming(json({ input_audio: { data: mp3, format: 'wav' } }), 'input_audio.format');
  });

  test('an MP3 named mp3 is admitted as mp3', () => {
    expect(admitted(json({ input_audio: { data: encodeSilence('mp3', 0.1).toString('base64'), format: 'mp3' } })).ask.container).toBe('mp3');
  });

  test('a data URL is refused naming input_audio.data', () => {
    expectRefusedNaming(json({ input_audio: { data: `data:audio/wav;base64,${WAV64}`, format: 'wav' } }), 'input_audio.data');
  });

  test.each([
    ['characters outside base64', `${WAV64.slice(0, -4)}!!!!`],
    ['a length that is no multiple of four', WAV64.slice(0, -1)],
    ['line breaks', `${WAV64.slice(0, 8)}\n${WAV64.slice(8)}`],
  ])('%s is refused naming input_audio.data', (_, data) => {
    expectRefusedNaming(json({ input_audio: { data, format: 'wav' } }), 'input_audio.data');
  });

  test('empty data is refused naming input_audio.data', () => {
    expectRefusedNaming(json({ input_audio: { data: '', format: 'wav' } }), 'input_audio.data');
    expectRefusedNaming(json({ input_audio: { data: '====', format: 'wav' } }), 'input_audio.data');
  });

  test('bytes in no accepted container are refused naming input_audio.data', () => {
    expectRefusedNaming(json({ input_audio: { data: Buffer.from('hello, not audio').toString('base64'), format: 'wav' } }), 'input_audio.data');
  });

  test('a format outside the accepted containers is refused naming input_audio.format', () => {
    expectRefusedNaming(json({ input_audio: { data: WAV64, format: 'aiff' } }), 'input_audio.format');
  });

  test('a recording over 25 MiB is a 413 naming input_audio.data', () => {
    const over = Buffer.concat([WAV, Buffer.alloc(TRANSCRIPTION_UPLOAD_BYTES + 1 - WAV.length)]);
    const error = refusal(json({ input_audio: { data: over.toString('base64'), format: 'wav' } }));
    expect(error.status).toBe(413);
    expect(error.code).toBe('payload_too_large');
    expect(error.metadata.field).toBe('input_audio.data');
  });
});

describe('transcription body: the recording as a form\'s file', () => {
  test('an uploaded recording is admitted, its bytes held as they came', () => {
    const { ask } = admitted(form());
    expect(ask.audio).toBe(WAV);
    expect(ask).toMatchObject({ container: 'wav', field: 'file' });
  });

  test.each([
    ['a string', WAV64],
    ['a plain object', { data: WAV64 }],
    ['a Buffer not read from a form', WAV],
  ])('`file` as %s is refused naming file', (_, file) => {
    expectRefusedNaming(form({ file }), 'file');
  });

  test('an empty upload is refused naming file', () => {
    expectRefusedNaming(form({ file: new UploadedAudio(Buffer.alloc(0)) }), 'file');
  });

  test('an upload in no accepted container is refused naming file', () => {
    expectRefusedNaming(form({ file: new UploadedAudio(Buffer.from('plain text, not a recording')) }), 'file');
  });

  test('an AAC stream (ADTS: a frame sync with layer bits 00) is no MP3: refused naming file', () => {
    expectRefusedNaming(form({ file: new UploadedAudio(Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x02, 0x1f, 0xfc, 0, 0, 0])) }), 'file');
  });

  test('25 MiB exactly is admitted; one byte more is a 413 naming file', () => {
    const exact = Buffer.concat([WAV, Buffer.alloc(TRANSCRIPTION_UPLOAD_BYTES - WAV.length)]);
    expect(admitted(form({ file: new UploadedAudio(exact) })).ask.audio.length).toBe(TRANSCRIPTION_UPLOAD_BYTES);
    const error = refusal(form({ file: new UploadedAudio(Buffer.concat([exact, Buffer.alloc(1)])) }));
    expect({ status: error.status, field: error.metadata.field }).toEqual({ status: 413, field: 'file' });
  });
});

describe('transcription body: one recording, and the options', () => {
  test('both a file and input_audio are refused', () => {
    const error = refusal(form({ input_audio: { data: WAV64, format: 'wav' } }));
    expect(error.status).toBe(400);
    expect(error.metadata.field).toBe('input_audio');
  });

  test('neither is refused naming file', () => {
    expectRefusedNaming({ model: 'acme/whisper' }, 'file');
  });

  test('timestamp_granularities without verbose_json is refused naming it', () => {
    expectRefusedNaming(form({ timestamp_granularities: ['word'] }), 'timestamp_granularities');
    expectRefusedNaming(form({ timestamp_granularities: ['segment'], response_format: 'srt' }), 'timestamp_granularities');
    expect(admitted(form({ timestamp_granularities: ['word'], response_format: 'verbose_json' })).ask.granularities).toEqual(['word']);
  });

  test('an empty granularity list is no granularity: admitted with json', () => {
    expect(admitted(form({ timestamp_granularities: [] })).ask.granularities).toEqual([]);
  });

  test.each(['English', 'EN', 'e', 'en_US', 'en-'])('language %j is refused naming language', (language) => {
    expectRefusedNaming(form({ language }), 'language');
  });

  test.each(['en', 'pt-BR', 'yue'])('language %j is admitted', (language) => {
    expect(admitted(form({ language })).ask.language).toBe(language);
  });

  test.each([-0.1, 1.01, 3])('temperature %d is refused naming temperature', (temperature) => {
    expectRefusedNaming(form({ temperature }), 'temperature');
  });

  test('temperatures 0 and 1 are admitted', () => {
    expect(admitted(form({ temperature: 0 })).ask.temperature).toBe(0);
    expect(admitted(form({ temperature: 1 })).ask.temperature).toBe(1);
  });

  test('stream true is refused naming stream; false is admitted', () => {
    expectRefusedNaming(form({ stream: true }), 'stream');
    expect(admit(form({ stream: false })).ok).toBe(true);
  });

  test('an unknown response_format is refused naming it', () => {
    expectRefusedNaming(form({ response_format: 'html' }), 'response_format');
  });

  test('the ask carries what was asked; format defaults to json', () => {
    const { ask } = admitted(form({ language: 'fr', prompt: 'Bonjour', temperature: 0.3, user: 'u-1' }));
    expect(ask).toMatchObject({ format: 'json', granularities: [], language: 'fr', prompt: 'Bonjour', temperature: 0.3, user: 'u-1' });
    expect(ask.seconds).toBeUndefined();
  });
});

describe('transcription body: what routing reads', () => {
  test('the facts carry one audio input part with the detected container', () => {
    expect(admitted(form()).facts.inputs).toEqual([{ modality: 'audio', source: 'base64', container: 'wav' }]);
    const mp3 = new UploadedAudio(encodeSilence('mp3', 0.1));
    expect(admitted(form({ file: mp3 })).facts.inputs).toEqual([{ modality: 'audio', source: 'base64', container: 'mp3' }]);
  });

  test('the request routes the one model asked, with no messages', () => {
    const { request } = admitted(form());
    expect(request.models).toEqual(['acme/whisper']);
    expect(request.messages).toEqual([]);
  });

  test('the route carries the language and no seconds before they are read', () => {
    expect(admitted(form({ language: 'de' })).request.operation).toEqual({ kind: 'transcription', language: 'de', timed: false });
    expect(admitted(form()).request.operation).toEqual({ kind: 'transcription', timed: false });
  });

  test.each([
    ['json', [], false],
    ['text', [], false],
    ['verbose_json', [], true],
    ['srt', [], true],
    ['vtt', [], true],
    ['verbose_json', ['word'], true],
  ])('%s with granularities %j is timed: %s', (format, granularities, timed) => {
    const operation = admitted(form({ response_format: format, timestamp_granularities: granularities })).request.operation;
    expect(operation).toMatchObject({ kind: 'transcription', timed });
  });

  test('the prompt\'s tokens are counted into the facts; no prompt is none', () => {
    expect(admitted(form()).facts.promptTokens).toBe(0);
    expect(admitted(form({ prompt: 'The speakers discuss Switchyard, a gateway.' })).facts.promptTokens).toBeGreaterThan(0);
  });
});

describe('multipart form → transcription body', () => {
  test('text fields are copied, temperature is parsed as a number', () => {
    const file = new UploadedAudio(WAV);
    expect(transcriptionFormToBody({ model: 'm', language: 'en', prompt: 'p', response_format: 'srt', user: 'u', temperature: '0.25', file })).toEqual({
      model: 'm', language: 'en', prompt: 'p', response_format: 'srt', user: 'u', temperature: 0.25, file,
    });
  });

  test('a temperature that is no number is left for the schema to name', () => {
    expect(transcriptionFormToBody({ temperature: 'warm' }).temperature).toBe('warm');
  });

  test('`timestamp_granularities[]` sent once is a one-item list; sent twice, both', () => {
    expect(transcriptionFormToBody({ 'timestamp_granularities[]': 'word' }).timestamp_granularities).toEqual(['word']);
    expect(transcriptionFormToBody({ 'timestamp_granularities[]': ['word', 'segment'] }).timestamp_granularities).toEqual(['word', 'segment']);
    expect(transcriptionFormToBody({ timestamp_granularities: 'segment' }).timestamp_granularities).toEqual(['segment']);
  });

  test('one field listing the granularities with commas is read as the list', () => {
    expect(transcriptionFormToBody({ timestamp_granularities: 'word, segment' }).timestamp_granularities).toEqual(['word', 'segment']);
  });

  test('stream is read as a boolean', () => {
    expect(transcriptionFormToBody({ stream: 'true' }).stream).toBe(true);
    expect(transcriptionFormToBody({ stream: 'false' }).stream).toBe(false);
  });

  test('provider is parsed from its JSON encoding', () => {
    expect(transcriptionFormToBody({ provider: '{"only":["alpha"]}' }).provider).toEqual({ only: ['alpha'] });
  });

  test.each(['not json', '[1]', '"alpha"', 'null'])('a provider of %j is a 400 naming provider', (provider) => {
    let thrown: unknown;
    try {
      transcriptionFormToBody({ provider });
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toMatchObject({ status: 400, metadata: { field: 'provider' } });
  });

  test('a file that is not an upload is a 400 naming file', () => {
    expect(() => transcriptionFormToBody({ file: 'text' })).toThrow(/^file: /);
  });

  test('the form\'s body is admitted as the JSON body would be', () => {
    const body = transcriptionFormToBody({ model: 'acme/whisper', file: new UploadedAudio(WAV), response_format: 'verbose_json', 'timestamp_granularities[]': 'segment', temperature: '0' });
    const { ask, request } = admitted(body);
    expect(ask).toMatchObject({ format: 'verbose_json', granularities: ['segment'], temperature: 0, field: 'file' });
    expect(request.operation).toMatchObject({ timed: true });
  });
});
