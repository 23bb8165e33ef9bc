import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { PlannedAttempt } from '../../../../src/core/plan.js';
import type { TranscriptionAsk } from '../../../../src/core/transcription.js';
import { startSimulator, type RunningSimulator } from '../../../../src/sim/server.js';
import { buildWav } from '../../../../src/sim/wav-audio.js';
import { openAiTranscriptionsAdapter } from '../../../../src/upstream/openai/transcriptions.js';
import { Transport } from '../../../../src/upstream/transport.js';
import { catalogueOf, endpoint, model } from '../../../fixtures/planner/catalogue-yaml.js';

const catalogue = catalogueOf([
  model('acme/whisper', [endpoint('alpha', {
    upstream_model: 'whisper-1',
    input_modalities: ['audio'],
    output_modalities: ['transcription'],
    supported_parameters: ['timestamp_granularities'],
    supported_languages: ['en', 'pt'],
    pricing: { audio_second: '0.0001' },
  })]),
]);

function attempt(options?: Record<string, unknown>): PlannedAttempt {
  const found = catalogue.endpoints.get('alpha/acme/whisper');
  const owner = catalogue.models.get('acme/whisper');
  if (!found || !owner) throw new Error('no endpoint');
  return { model: owner, modelId: owner.id, endpoint: found, promptTokens: 0, heldCeiling: 0, ...(options && { options }) };
}

const AUDIO = buildWav(1);

function ask(extra: Partial<TranscriptionAsk> = {}): TranscriptionAsk {
  return { audio: AUDIO, container: 'wav', field: 'file', seconds: '1.000000', format: 'json', granularities: [], ...extra };
}

const build = (extra: Partial<TranscriptionAsk> = {}, options?: Record<string, unknown>) => openAiTranscriptionsAdapter.buildRequest(ask(extra), attempt(options));

describe('OpenAI transcriptions adapter: the request', () => {
  test('goes to /audio/transcriptions', () => {
    expect(build().path).toBe('/audio/transcriptions');
  });

  test('uploads the held recording as `file`, named and typed for its container', () => {
    expect(build().upload).toEqual({ field: 'file', filename: 'audio.wav', mediaType: 'audio/wav', bytes: AUDIO });
    expect(build().upload?.bytes).toBe(AUDIO);
    expect(build({ container: 'mp3' }).upload).toMatchObject({ filename: 'audio.mp3', mediaType: 'audio/mpeg' });
    expect(build({ container: 'm4a' }).upload).toMatchObject({ filename: 'audio.m4a', mediaType: 'audio/mp4' });
  });

  test('a plain json ask sends only the upstream model and response_format json', () => {
    expect(build().body).toEqual({ model: 'whisper-1', response_format: 'json' });
  });

  test('text is asked of the endpoint as json: the dialect renders it', () => {
    expect(build({ format: 'text' }).body.response_format).toBe('json');
  });

  test.each(['verbose_json', 'srt', 'vtt'] as const)('%s asks the endpoint for verbose_json (timed segments)', (format) => {
    expect(build({ format }).body.response_format).toBe('verbose_json');
  });

  test('timestamp granularities go as the repeated `timestamp_granularities[]` list, with verbose_json', () => {
    const body = build({ format: 'verbose_json', granularities: ['word', 'segment'] }).body;
    expect(body['timestamp_granularities[]']).toEqual(['word', 'segment']);
    expect(body.response_format).toBe('verbose_json');
    expect(body).not.toHaveProperty('timestamp_granularities');
  });

  test('language, prompt and temperature are sent only when given; a temperature of 0 is given', () => {
    expect(build({ language: 'en', prompt: 'Glossary: Switchyard', temperature: 0 }).body).toEqual({
      model: 'whisper-1', response_format: 'json', language: 'en', prompt: 'Glossary: Switchyard', temperature: 0,
    });
    const bare = build().body;
    for (const member of ['language', 'prompt', 'temperature', 'timestamp_granularities[]']) expect(bare).not.toHaveProperty(member);
  });

  test('the provider\'s options are merged into the form fields', () => {
    expect(build({}, { chunking_strategy: 'auto', include: ['logprobs'] }).body).toEqual({
      model: 'whisper-1', response_format: 'json', chunking_strategy: 'auto', include: ['logprobs'],
    });
  });
});

describe('OpenAI transcriptions adapter: the reply', () => {
  const decode = (json: unknown, extra: Partial<TranscriptionAsk> = {}) => openAiTranscriptionsAdapter.decodeReply(json, ask(extra));
  const result = (json: unknown, extra: Partial<TranscriptionAsk> = {}) => {
    const decoded = decode(json, extra);
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.failure));
    return decoded.result;
  };
  const failsAsProtocol = (json: unknown, extra: Partial<TranscriptionAsk> = {}) => {
    const decoded = decode(json, extra);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.failure).toMatchObject({ kind: 'protocol', retryable: true });
  };

  test('the transcript text is read; usage absent is an empty usage', () => {
    expect(result({ text: 'Hello there.' })).toEqual({ text: 'Hello there.', usage: {} });
  });

  test.each([
    ['no text', { usage: { type: 'duration', seconds: 1 } }],
    ['text that is not a string', { text: 42 }],
    ['not an object', ['Hello']],
    ['null', null],
  ])('%s fails the attempt', (_, json) => {
    failsAsProtocol(json);
  });

  test('usage by duration is read as seconds', () => {
    expect(result({ text: 'x', usage: { type: 'duration', seconds: 4 } }).usage).toEqual({ seconds: 4 });
  });

  test('usage by tokens is read with the input split into text and audio', () => {
    expect(result({
      text: 'x',
      usage: { type: 'tokens', input_tokens: 40, input_token_details: { text_tokens: 5, audio_tokens: 35 }, output_tokens: 12, total_tokens: 52 },
    }).usage).toEqual({ inputTokens: 40, inputTextTokens: 5, inputAudioTokens: 35, outputTokens: 12, totalTokens: 52 });
  });

  test('counts that are not non-negative integers are not read', () => {
    expect(result({ text: 'x', usage: { type: 'tokens', input_tokens: -1, output_tokens: 2.5, total_tokens: '7' } }).usage).toEqual({});
    expect(result({ text: 'x', usage: { type: 'duration', seconds: -3 } }).usage).toEqual({});
  });

  test('language, duration, segments, words and the id of a verbose reply are read, extra segment members kept', () => {
    const segments = [{ id: 0, start: 0, end: 1.5, text: ' Hello', avg_logprob: -0.2 }, { id: 1, start: 1.5, end: 3.25, text: ' world' }];
    const words = [{ word: 'Hello', start: 0, end: 0.7 }, { word: 'world', start: 1.5, end: 2 }];
    expect(result({ id: 'tr_1', text: 'Hello world', language: 'english', duration: 3.25, segments, words }, { format: 'verbose_json' })).toEqual({
      text: 'Hello world', language: 'english', duration: 3.25, segments, words, usage: {}, upstreamId: 'tr_1',
    });
  });

  test.each([
    ['segments that are not a list', { text: 'x', segments: { start: 0 } }],
    ['a segment without text', { text: 'x', segments: [{ start: 0, end: 1 }] }],
    ['a segment whose start is a string', { text: 'x', segments: [{ start: '0', end: 1, text: 'a' }] }],
    ['a segment whose end is no number', { text: 'x', segments: [{ start: 0, end: null, text: 'a' }] }],
    ['one good segment and one bad', { text: 'x', segments: [{ start: 0, end: 1, text: 'a' }, 'b'] }],
    ['a word without its word', { text: 'x', words: [{ start: 0, end: 1, text: 'a' }] }],
    ['a word without an end', { text: 'x', words: [{ word: 'a', start: 0 }] }],
  ])('%s fails the attempt', (_, json) => {
    failsAsProtocol(json, { format: 'verbose_json' });
  });

  test.each(['srt', 'vtt'] as const)('%s asked, a reply without segments fails the attempt', (format) => {
    failsAsProtocol({ text: 'Hello', words: [{ word: 'Hello', start: 0, end: 1 }] }, { format });
  });

  test('verbose_json with only word timestamps needs no segments', () => {
    expect(result({ text: 'Hello', words: [{ word: 'Hello', start: 0, end: 1 }] }, { format: 'verbose_json', granularities: ['word'] }).words).toHaveLength(1);
  });

  test.each([404, 405, 501])('a %i means the endpoint does not serve transcription: a retryable protocol failure', (status) => {
    expect(openAiTranscriptionsAdapter.decodeError(status, 'Not Found', {})).toMatchObject({ kind: 'protocol', status, retryable: true, providerMessage: 'the endpoint does not serve transcription' });
  });

  test('any other error status is the provider\'s own error', () => {
    const failure = openAiTranscriptionsAdapter.decodeError(400, JSON.stringify({ error: { message: 'bad file', code: 'invalid_file' } }), {});
    expect(failure).toMatchObject({ status: 400, providerMessage: 'bad file', providerCode: 'invalid_file' });
    expect(failure.providerMessage).not.toBe('the endpoint does not serve transcription');
  });
});

describe('OpenAI transcriptions adapter over the transport, against the simulator', () => {
  let sim: RunningSimulator;
  let transport: Transport;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    transport = new Transport();
  });

  afterAll(async () => {
    await transport?.close();
    await sim?.close();
  });

  async function transcribe(extra: Partial<TranscriptionAsk>) {
    const sent = ask({ audio: buildWav(2), ...extra });
    const response = await transport.send(`${sim.url}/v1`, openAiTranscriptionsAdapter.buildRequest(sent, attempt()), AbortSignal.timeout(10_000));
    const text = await response.body.text();
    return response.status < 300
      ? openAiTranscriptionsAdapter.decodeReply(JSON.parse(text), sent)
      : { ok: false as const, failure: openAiTranscriptionsAdapter.decodeError(response.status, text, response.headers) };
  }

  test('the multipart request is read by the endpoint: verbose_json with both granularities comes back timed', async () => {
    const decoded = await transcribe({ format: 'verbose_json', granularities: ['word', 'segment'], language: 'en' });
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.failure));
    expect(decoded.result.duration).toBe(2);
    expect(decoded.result.segments?.length).toBeGreaterThan(0);
    expect(decoded.result.words?.length).toBeGreaterThan(0);
    expect(decoded.result.usage).toEqual({ seconds: 2 });
  });

  test('a regional language tag, routed by its primary subtag (pt-BR to an endpoint declaring pt), is understood by the endpoint', async () => {
    // OpenAI's transcription endpoints (and the simulator copying them) take ISO-639-1 codes only
    const decoded = await transcribe({ language: 'pt-BR' });
    if (!decoded.ok) throw new Error(`refused upstream: ${JSON.stringify(decoded.failure)}`);
    expect(decoded.result.text.length).toBeGreaterThan(0);
  });
});
