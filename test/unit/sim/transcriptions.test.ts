import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import OpenAI, { toFile } from 'openai';
import { startSimulator, type RunningSimulator } from '../../../src/sim/server.js';
import { encodeSilence } from '../../../src/sim/speech-audio.js';
import { buildWav } from '../../../src/sim/wav-audio.js';

let sim: RunningSimulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sim', maxRetries: 0 });
});

afterAll(async () => sim.close());

const WAV_4S = buildWav(4);

async function upload(bytes: Buffer, name = 'a.wav'): Promise<File> {
  return toFile(bytes, name);
}

describe('POST /v1/audio/transcriptions', () => {
  test('json: a deterministic transcript, 2.5 words a second; gpt-4o-transcribe-style usage in tokens', async () => {
    const reply = await client.audio.transcriptions.create({ file: await upload(WAV_4S), model: 'transcribe' });
    const again = await client.audio.transcriptions.create({ file: await upload(WAV_4S), model: 'transcribe' });
    expect(reply.text).toBe(again.text);
    expect(reply.text.split(' ')).toHaveLength(10);
    expect(reply.usage).toMatchObject({ type: 'tokens', input_tokens: 40, input_token_details: { audio_tokens: 40, text_tokens: 0 } });
    expect(reply.usage?.type === 'tokens' && reply.usage.total_tokens).toBe(40 + (reply.usage?.type === 'tokens' ? reply.usage.output_tokens : 0));
    const other = await client.audio.transcriptions.create({ file: await upload(buildWav(4.5)), model: 'transcribe' });
    expect(other.text).not.toBe(reply.text);
  });

  test('whisper models bill by duration, in whole seconds rounded up', async () => {
    const reply = await client.audio.transcriptions.create({ file: await upload(buildWav(2.2)), model: 'whisper-1' });
    expect(reply.usage).toEqual({ type: 'duration', seconds: 3 });
  });

  test('an MP3 upload is read by its container: its duration sets the transcript', async () => {
    const mp3 = encodeSilence('mp3', 2);
    const reply = await client.audio.transcriptions.create({ file: await upload(mp3, 'a.mp3'), model: 'whisper-1', response_format: 'verbose_json' });
    expect(reply.duration).toBeCloseTo(2, 1);
    expect(reply.text.split(' ')).toHaveLength(5);
  });

  test('text, srt and vtt are plain-text bodies of the same transcript', async () => {
    const json = await client.audio.transcriptions.create({ file: await upload(WAV_4S), model: 'whisper' });
    const text = await client.audio.transcriptions.create({ file: await upload(WAV_4S), model: 'whisper', response_format: 'text' });
    expect(text).toBe(`${json.text}\n`);
    const srt = await client.audio.transcriptions.create({ file: await upload(WAV_4S), model: 'whisper', response_format: 'srt' });
    expect(srt).toMatch(/^1\n00:00:00,000 --> 00:00:03,200\n\S.*\.\n\n2\n00:00:03,200 --> 00:00:04,000\n/);
    const vtt = await client.audio.transcriptions.create({ file: await upload(WAV_4S), model: 'whisper', response_format: 'vtt' });
    expect(vtt).toMatch(/^WEBVTT\n\n00:00:00\.000 --> 00:00:03\.200\n/);
    expect(srt.replace(/\d+\n[\d:,]+ --> [\d:,]+\n/g, '').split(/\n+/).join(' ').trim()).toBe(json.text);
  });

  test('verbose_json: language, duration, segments, and word timestamps when asked', async () => {
    const reply = await client.audio.transcriptions.create({
      file: await upload(WAV_4S), model: 'whisper-1', response_format: 'verbose_json', language: 'fr', timestamp_granularities: ['word', 'segment'],
    });
    expect(reply).toMatchObject({ language: 'french', duration: 4, usage: { type: 'duration', seconds: 4 } });
    expect(reply.words).toHaveLength(10);
    expect(reply.words?.[9]).toMatchObject({ start: 3.6, end: 4 });
    expect(reply.segments?.map((segment) => [segment.id, segment.start, segment.end])).toEqual([[0, 0, 3.2], [1, 3.2, 4]]);
    expect(reply.segments?.[0]?.tokens.length).toBeGreaterThan(0);
    const wordsOnly = await client.audio.transcriptions.create({ file: await upload(WAV_4S), model: 'whisper-1', response_format: 'verbose_json', timestamp_granularities: ['word'] });
    expect(wordsOnly.segments).toBeUndefined();
    expect(wordsOnly.language).toBe('english');
  });

  test('a corrupt, empty or non-audio file is refused with 400 naming file', async () => {
    for (const bytes of [Buffer.from('definitely not audio, only words'), Buffer.alloc(0), Buffer.from('RIFF\0\0\0\0WAVE', 'latin1')]) {
      await expect(client.audio.transcriptions.create({ file: await upload(bytes), model: 'whisper-1' })).rejects.toMatchObject({ status: 400, param: 'file' });
    }
  });

  test('a file over 25 MiB is refused with 413; one of 25 MiB exactly, with its fields beside it, is read', async () => {
    const big = Buffer.alloc(25 * 1024 * 1024 + 1);
    await expect(client.audio.transcriptions.create({ file: await upload(big), model: 'whisper-1' })).rejects.toMatchObject({ status: 413 });
    const limit = buildWav((25 * 1024 * 1024 - 44) / 16_000);
    expect(limit.length).toBe(25 * 1024 * 1024);
    const reply = await client.audio.transcriptions.create({ file: await upload(limit), model: 'whisper-1', prompt: 'a long recording' });
    expect(reply.usage).toEqual({ type: 'duration', seconds: Math.ceil((25 * 1024 * 1024 - 44) / 16_000) });
  });

  test.each([
    ['response_format', { model: 'transcribe', response_format: 'verbose_json' }],
    ['response_format', { model: 'whisper-1', response_format: 'docx' }],
    ['timestamp_granularities', { model: 'whisper-1', timestamp_granularities: ['word'] }],
    ['temperature', { model: 'whisper-1', temperature: 2 }],
    ['language', { model: 'whisper-1', language: 'English' }],
  ])('an unusable value is refused with 400 naming %s', async (param, fields) => {
    const body = { file: await upload(WAV_4S), ...fields } as unknown as OpenAI.Audio.TranscriptionCreateParamsNonStreaming;
    await expect(client.audio.transcriptions.create(body)).rejects.toMatchObject({ status: 400, param });
  });

  test('behaviours: error before any byte, a slow answer, refusal of a parameter, no usage', async () => {
    const file = await upload(WAV_4S);
    await expect(client.audio.transcriptions.create({ file, model: 'whisper-1;error=500' })).rejects.toMatchObject({ status: 500 });
    await expect(client.audio.transcriptions.create({ file, model: 'whisper-1', prompt: 'names [[sim error=503]]' })).rejects.toMatchObject({ status: 503 });
    const started = performance.now();
    await client.audio.transcriptions.create({ file, model: 'whisper-1;ttft=150' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    await expect(client.audio.transcriptions.create({ file, model: 'whisper-1;refuse_param=language', language: 'en' }))
      .rejects.toMatchObject({ status: 400, param: 'language', code: 'unsupported_parameter' });
    expect((await client.audio.transcriptions.create({ file, model: 'whisper-1;no_usage' })).usage).toBeUndefined();
    await expect(client.audio.transcriptions.create({ file, model: 'whisper-1;disconnect_after=0' })).rejects.toThrow(/Connection error/);
  });

  test('the request log records the fields and the file by name and size', async () => {
    sim.clearRequests();
    await client.audio.transcriptions.create({ file: await upload(WAV_4S), model: 'whisper-1', timestamp_granularities: ['word'], response_format: 'verbose_json' });
    expect(sim.requests()[0]?.body).toMatchObject({ model: 'whisper-1', timestamp_granularities: ['word'], file: { name: 'a.wav', bytes: WAV_4S.length } });
  });
});
