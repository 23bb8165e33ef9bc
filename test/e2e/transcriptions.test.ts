import { OpenRouter } from '@openrouter/sdk';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUsd } from '../../src/billing/money.js';
import { encodeSilence } from '../../src/sim/speech-audio.js';
import { buildWav } from '../../src/sim/wav-audio.js';
import { accountMoney, generationRecord, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const LANGUAGES = ['en', 'fr', 'de'];

function transcriptionEndpoint(provider: string, upstream: string, extra: Record<string, unknown> = {}): Record<string, unknown> & { provider: string; upstream_model: string } {
  return {
    provider,
    upstream_model: upstream,
    context_length: 448,
    input_modalities: ['audio'],
    output_modalities: ['transcription'],
    input_containers: { audio: ['wav', 'mp3'] },
    supported_parameters: ['timestamp_granularities'],
    supported_languages: LANGUAGES,
    pricing: { audio_second: '0.0001' },
    ...extra,
  };
}

/** A FLAC stream of `seconds` as its STREAMINFO block tells them (16 kHz, mono, 16-bit), with no frames. */
function flacOf(seconds: number): Buffer {
  const info = Buffer.alloc(34);
  info.writeUInt16BE(4096, 0);
  info.writeUInt16BE(4096, 2);
  const packed = (16_000n << 44n) | (0n << 41n) | (15n << 36n) | BigInt(seconds * 16_000);
  info.writeBigUInt64BE(packed, 10);
  return Buffer.concat([Buffer.from('fLaC'), Buffer.from([0x80, 0, 0, 34]), info]);
}

/** A gpt-4o-transcribe-style endpoint: tokens billed, json and text only. */
const TOKEN_PRICES = { prompt: '0.0000025', completion: '0.00001' };

let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/whisper', endpoints: [transcriptionEndpoint('sim-a', 'whisper-1')] },
      {
        id: 'acme/transcribe',
        endpoints: [transcriptionEndpoint('sim-b', 'transcribe', { context_length: 16000, max_completion_tokens: 2000, supported_parameters: [], supported_languages: ['en'], pricing: TOKEN_PRICES })],
      },
      {
        id: 'acme/mixed',
        endpoints: [
          // its hold (the whole window and output limit) is below a two-second one on the per-second endpoint
          transcriptionEndpoint('sim-b', 'transcribe', { context_length: 16000, max_completion_tokens: 2000, supported_parameters: [], supported_languages: ['en'], pricing: { prompt: '0.00000001', completion: '0.00000001' } }),
          transcriptionEndpoint('sim-a', 'whisper-1', { input_containers: { audio: ['wav', 'mp3', 'flac'] } }),
        ],
      },
      {
        id: 'acme/whisper-failover',
        endpoints: [
          transcriptionEndpoint('sim-a', 'whisper-1;error=500', { pricing: { audio_second: '0.00001' } }),
          transcriptionEndpoint('sim-b', 'whisper-1'),
        ],
      },
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
    ],
  });
  client = new OpenAI({ baseURL: harness.baseUrl, apiKey: harness.key, maxRetries: 0 });
});

afterAll(async () => harness?.close());


async function refusal(body: Record<string, unknown>): Promise<{ status: number; envelope: ErrorEnvelope }> {
  const reply = await send(harness, { path: '/audio/transcriptions', body });
  return { status: reply.status, envelope: reply.json as ErrorEnvelope };
}

async function formRefusal(form: FormData): Promise<{ status: number; envelope: ErrorEnvelope }> {
  const response = await fetch(`${harness.baseUrl}/audio/transcriptions`, { method: 'POST', headers: { authorization: `Bearer ${harness.key}` }, body: form });
  return { status: response.status, envelope: (await response.json()) as ErrorEnvelope };
}

function audioForm(bytes: Buffer, fields: Record<string, string>, filename = 'talk.wav'): FormData {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(bytes)]), filename);
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  return form;
}

describe('POST /audio/transcriptions with the official openai client', () => {
  it('json: the transcript, billed per second read from the container; the record keeps the seconds', async () => {
    const before = await accountMoney(harness);
    const { data, response } = await client.audio.transcriptions.create({ file: await toFile(buildWav(4), 'talk.wav'), model: 'acme/whisper' }).withResponse();
    expect(data.text.split(' ')).toHaveLength(10);
    expect(data.usage).toEqual({ type: 'duration', seconds: 4, cost: 0.0004 });
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
    const record = await generationRecord(harness, response.headers.get('x-generation-id') ?? '');
    expect(record.cost_usd).toBe('0.0004');
    expect(record.cost_lines).toEqual([{ key: 'audio_second', quantity: '4.000000', amount_usd: '0.0004' }]);
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBe(parseUsd('0.0004'));
    expect(after.reserved).toBe(0n);
  });

  it('bills the exact seconds of the container, not the provider\'s rounded-up whole seconds', async () => {
    const { data, response } = await client.audio.transcriptions.create({ file: await toFile(buildWav(2.25), 'talk.wav'), model: 'acme/whisper' }).withResponse();
    expect(data.usage).toEqual({ type: 'duration', seconds: 2.25, cost: 0.000225 });
    const record = await generationRecord(harness, response.headers.get('x-generation-id') ?? '');
    expect(record.cost_lines).toEqual([{ key: 'audio_second', quantity: '2.250000', amount_usd: '0.000225' }]);
  });

  it('a token-billed endpoint is charged its reported tokens at prompt and completion; the seconds are recorded unpriced', async () => {
    const { data, response } = await client.audio.transcriptions.create({ file: await toFile(buildWav(4), 'talk.wav'), model: 'acme/transcribe' }).withResponse();
    if (data.usage?.type !== 'tokens') throw new Error(`usage by ${data.usage?.type}`);
    const { input_tokens: input, output_tokens: output } = data.usage;
    expect(input).toBe(40);
    expect(data.usage.total_tokens).toBe(input + output);
    const expected = parseUsd('0.0000025') * BigInt(input) + parseUsd('0.00001') * BigInt(output);
    expect(parseUsd(String((data.usage as unknown as { cost: number }).cost))).toBe(expected);
    const record = await generationRecord(harness, response.headers.get('x-generation-id') ?? '');
    expect(record.tokens_prompt).toBe(input);
    expect(record.tokens_completion).toBe(output);
    expect(record.cost_lines).toEqual([
      { key: 'audio_second', quantity: '4.000000', amount_usd: null },
      { key: 'prompt', quantity: String(input), amount_usd: expect.any(String) },
      { key: 'completion', quantity: String(output), amount_usd: expect.any(String) },
    ]);
    expect(parseUsd(record.cost_usd)).toBe(expected);
  });

  it('verbose_json with word and segment timestamps goes to the endpoint answering timed segments, though another is cheaper', async () => {
    const { data, response } = await client.audio.transcriptions.create({
      file: await toFile(buildWav(6), 'talk.wav'),
      model: 'acme/mixed',
      response_format: 'verbose_json',
      timestamp_granularities: ['word', 'segment'],
      language: 'en',
    }).withResponse();
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
    expect(data.duration).toBe(6);
    expect(data.language).toBe('english');
    expect(data.words?.length).toBe(15);
    expect(data.segments?.[0]).toMatchObject({ id: 0, start: 0 });
    expect(data.text.trim().split(' ')).toHaveLength(15);
  });

  it('text, srt and vtt come back as plain text the client returns as a string', async () => {
    const file = async () => toFile(buildWav(4), 'talk.wav');
    const text = await client.audio.transcriptions.create({ file: await file(), model: 'acme/whisper', response_format: 'text' });
    const json = await client.audio.transcriptions.create({ file: await file(), model: 'acme/whisper' });
    expect(text).toBe(`${json.text}\n`);
    const srt = await client.audio.transcriptions.create({ file: await file(), model: 'acme/whisper', response_format: 'srt' });
    expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:0\d,\d{3}\n\S/);
    const vtt = await client.audio.transcriptions.create({ file: await file(), model: 'acme/whisper', response_format: 'vtt' });
    expect(vtt).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:0\d\.\d{3}\n\S/);
  });

  it('captions are never asked of an endpoint without timed segments: srt on a token-billed model is no route', async () => {
    const reply = await formRefusal(audioForm(buildWav(2), { model: 'acme/transcribe', response_format: 'srt' }));
    expect(reply.status).toBe(503);
    expect(reply.envelope.error.message).toContain('does not answer with timed segments');
  });

  it('an MP3 recording is read by its container and billed by its seconds', async () => {
    const data = await client.audio.transcriptions.create({ file: await toFile(encodeSilence('mp3', 3), 'talk.mp3'), model: 'acme/whisper' });
    if (data.usage?.type !== 'duration') throw new Error('not billed by duration');
    expect(data.usage.seconds).toBeGreaterThan(2.9);
    expect(data.usage.seconds).toBeLessThan(3.2);
  });

  it('fails over past an endpoint erroring before its first byte, and charges only the one that answered', async () => {
    const { data, response } = await client.audio.transcriptions.create({ file: await toFile(buildWav(2), 'talk.wav'), model: 'acme/whisper-failover' }).withResponse();
    expect(response.headers.get('x-provider-name')).toBe('Sim B');
    expect(data.usage).toEqual({ type: 'duration', seconds: 2, cost: 0.0002 });
  });

  it('a language only some endpoints declare routes to those: fr goes past the English-only endpoint', async () => {
    const { response } = await client.audio.transcriptions.create({ file: await toFile(buildWav(2), 'talk.wav'), model: 'acme/mixed', language: 'fr' }).withResponse();
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
    const english = await client.audio.transcriptions.create({ file: await toFile(buildWav(2), 'talk.wav'), model: 'acme/mixed', language: 'en' }).withResponse();
    expect(english.response.headers.get('x-provider-name')).toBe('Sim B');
  });
});

describe('POST /audio/transcriptions with the official @openrouter/sdk client', () => {
  const sdk = () => new OpenRouter({ serverURL: harness.baseUrl, apiKey: harness.key, retryConfig: { strategy: 'none' } });

  it('the JSON form: input_audio as base64, usage with seconds and cost', async () => {
    const reply = await sdk().stt.createTranscription({ sttRequest: { model: 'acme/whisper', inputAudio: { data: buildWav(3).toString('base64'), format: 'wav' } } });
    expect(reply.text.split(' ')).toHaveLength(8);
    expect(reply.usage).toMatchObject({ seconds: 3, cost: 0.0003 });
  });

  it('the multipart form, with verbose_json and both timestamp granularities in one field', async () => {
    const reply = await sdk().stt.createTranscriptionMultipart({
      requestBody: {
        file: { fileName: 'talk.wav', content: new Uint8Array(buildWav(4)) },
        model: 'acme/whisper',
        responseFormat: 'verbose_json',
        timestampGranularities: ['word', 'segment'],
      },
    });
    expect(reply.duration).toBe(4);
    expect(reply.words).toHaveLength(10);
    expect(reply.segments?.length).toBeGreaterThan(0);
    expect(reply.usage).toMatchObject({ seconds: 4, cost: 0.0004 });
  });
});

describe('bad input: refused before any provider call, never charged', () => {
  it('refuses each with the field named, and the balance is untouched', async () => {
    const before = await accountMoney(harness);
    const cases: Array<[string, Promise<{ status: number; envelope: ErrorEnvelope }>, number, RegExp]> = [
      ['an empty file', formRefusal(audioForm(Buffer.alloc(0), { model: 'acme/whisper' })), 400, /^file: /],
      ['bytes that are no recording', formRefusal(audioForm(Buffer.from('hello, this is not audio at all'), { model: 'acme/whisper' })), 400, /^file: .*WAV, MP3/],
      ['a WAV header cut short', formRefusal(audioForm(buildWav(2).subarray(0, 30), { model: 'acme/whisper' })), 400, /^file: /],
      ['no recording at all', refusal({ model: 'acme/whisper' }), 400, /^file: required/],
      ['input_audio naming another format than its bytes', refusal({ model: 'acme/whisper', input_audio: { data: buildWav(1).toString('base64'), format: 'mp3' } }), 400, /^input_audio\.format: /],
      ['input_audio as a data URL', refusal({ model: 'acme/whisper', input_audio: { data: `data:audio/wav;base64,${buildWav(1).toString('base64')}`, format: 'wav' } }), 400, /^input_audio\.data: /],
      ['a FLAC header that says nothing', refusal({ model: 'acme/whisper', input_audio: { data: Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(64)]).toString('base64'), format: 'flac' } }), 400, /^input_audio\.data: /],
      ['a language no endpoint declares', formRefusal(audioForm(buildWav(1), { model: 'acme/transcribe', language: 'ja' })), 400, /^language: /],
      ['a malformed language', formRefusal(audioForm(buildWav(1), { model: 'acme/whisper', language: 'English' })), 400, /^language: /],
      ['timestamps without verbose_json', formRefusal(audioForm(buildWav(1), { model: 'acme/whisper', 'timestamp_granularities[]': 'word' })), 400, /^timestamp_granularities: /],
      ['a temperature out of range', formRefusal(audioForm(buildWav(1), { model: 'acme/whisper', temperature: '3' })), 400, /^temperature: /],
      ['streaming', formRefusal(audioForm(buildWav(1), { model: 'acme/whisper', stream: 'true' })), 400, /^stream: /],
      ['an unknown response format', formRefusal(audioForm(buildWav(1), { model: 'acme/whisper', response_format: 'html' })), 400, /^response_format: /],
      ['two files', (async () => {
        const form = audioForm(buildWav(1), { model: 'acme/whisper' });
        form.append('file', new Blob([new Uint8Array(buildWav(1))]), 'again.wav');
        return formRefusal(form);
      })(), 400, /^file: /],
    ];
    for (const [name, pending, status, message] of cases) {
      const reply = await pending;
      expect({ name, status: reply.status }).toEqual({ name, status });
      expect({ name, message: reply.envelope.error.message }).toEqual({ name, message: expect.stringMatching(message) });
    }
    const after = await accountMoney(harness);
    expect(after).toEqual(before);
  });

  it('a FLAC recording where only WAV and MP3 are declared is no route (503) naming the container', async () => {
    const flac = flacOf(1);
    const reply = await formRefusal(audioForm(flac, { model: 'acme/transcribe' }, 'talk.flac'));
    expect(reply.status).toBe(503);
    expect(reply.envelope.error.message).toContain('does not accept audio in flac');
    const served = await client.audio.transcriptions.create({ file: await toFile(flac, 'talk.flac'), model: 'acme/mixed', language: 'en' }).withResponse();
    expect(served.response.headers.get('x-provider-name')).toBe('Sim A');
  });

  it('a recording over 25 MiB is 413 naming file; one of 25 MiB exactly is transcribed', async () => {
    const reply = await formRefusal(audioForm(Buffer.concat([buildWav(1), Buffer.alloc(25 * 1024 * 1024)]), { model: 'acme/whisper' }));
    expect(reply.status).toBe(413);
    expect(reply.envelope.error.message).toMatch(/^file: /);
    const seconds = (25 * 1024 * 1024 - 44) / 16_000;
    const limit = buildWav(seconds);
    expect(limit.length).toBe(25 * 1024 * 1024);
    const served = await client.audio.transcriptions.create({ file: await toFile(limit, 'long.wav'), model: 'acme/whisper' });
    expect(served.usage).toMatchObject({ type: 'duration', seconds });
  });

  it('a model with no transcription endpoint refuses the call', async () => {
    const reply = await formRefusal(audioForm(buildWav(1), { model: 'acme/chat' }));
    expect(reply.status).toBe(502);
    expect(reply.envelope.error.message).toContain('no endpoint serves transcription');
  });
});

describe('the catalogue of transcription models', () => {
  it('/models?output_modalities=transcription lists them with their languages, and no chat model', async () => {
    const reply = await send(harness, { path: '/models?output_modalities=transcription' });
    expect(reply.status).toBe(200);
    const models = (reply.json as { data: Array<{ id: string; supported_languages: string[] | null; architecture: { output_modalities: string[] } }> }).data;
    expect(models.map((model) => model.id)).toEqual(expect.arrayContaining(['acme/whisper', 'acme/transcribe', 'acme/mixed']));
    expect(models.map((model) => model.id)).not.toContain('acme/chat');
    expect(models.find((model) => model.id === 'acme/whisper')?.supported_languages).toEqual(LANGUAGES);
    expect(models.find((model) => model.id === 'acme/transcribe')?.architecture.output_modalities).toEqual(['transcription']);
  });
});
