import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBuffer } from 'music-metadata';
import { formatUsd, parseUsd } from '../../src/billing/money.js';
import { buildWav } from '../../src/sim/wav-audio.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const SPEECH = { input_modalities: ['text'], output_modalities: ['speech'], supported_parameters: ['seed'] };
const ALL_CODECS = ['mp3', 'wav', 'pcm', 'mulaw', 'alaw'];

let harness: Harness;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      {
        id: 'acme/tts',
        endpoints: [
          {
            provider: 'sim-a', upstream_model: 'tts-a', ...SPEECH, pricing: { character: '0.000015' },
            supported_parameters: ['seed', 'instructions'],
            passthrough_parameters: { emotion: { type: 'string', enum: ['calm', 'bright'] } },
            speech_envelope: { voices: ['alloy', 'verse'], codecs: ALL_CODECS, min_speed: 0.5, max_speed: 2 },
          },
          {
            provider: 'sim-b', upstream_model: 'tts-b', ...SPEECH, pricing: {},
            speech_envelope: { voices: ['nova'], codecs: ['wav'] },
            supports_voice_cloning: true, reference_inputs: { audio: { formats: ['wav'] } },
          },
        ],
      },
      { id: 'acme/default-voice', endpoints: [{ provider: 'sim-a', upstream_model: 'tts', ...SPEECH, speech_envelope: { voices: ['default', 'calm'], codecs: ['wav'] } }] },
      {
        id: 'acme/one-offered',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'tts', ...SPEECH, speech_envelope: { voices: ['amber', 'birch'], codecs: ['wav'] } },
          { provider: 'sim-b', upstream_model: 'tts', ...SPEECH, speech_envelope: { voices: ['cedar'], codecs: ['wav'] } },
        ],
      },
      { id: 'acme/many-voices', endpoints: [{ provider: 'sim-a', upstream_model: 'tts', ...SPEECH, speech_envelope: { voices: ['amber', 'birch'], codecs: ['wav'] } }] },
      {
        id: 'acme/flaky',
        endpoints: [
          { provider: 'sim-a', upstream_model: 'tts;error=503', ...SPEECH, pricing: { character: '0.00001' }, speech_envelope: { voices: ['alloy'], codecs: ['wav'] } },
          { provider: 'sim-b', upstream_model: 'tts;fail_after=0', ...SPEECH, pricing: { character: '0.00001' }, speech_envelope: { voices: ['alloy'], codecs: ['wav'] } },
          { provider: 'sim-c', upstream_model: 'tts', ...SPEECH, pricing: { character: '0.00001' }, speech_envelope: { voices: ['alloy'], codecs: ['wav'] } },
        ],
      },
      { id: 'acme/breaks', endpoints: [{ provider: 'sim-a', upstream_model: 'tts;fail_after=1', ...SPEECH, pricing: { character: '0.00001' }, speech_envelope: { voices: ['alloy'], codecs: ['wav'] } }] },
      { id: 'acme/down', endpoints: [{ provider: 'sim-a', upstream_model: 'tts;error=500', ...SPEECH, pricing: { character: '0.00001' }, speech_envelope: { voices: ['alloy'], codecs: ['wav'] } }] },
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
      { id: 'acme/chat-audio', endpoints: [{ provider: 'sim-a', upstream_model: 'chat', output_modalities: ['text', 'audio'] }] },
    ],
  });
});

afterAll(async () => harness.close());

/** A speech call over a bare HTTP/1.1 connection: the status, headers, bytes received and whether the body ended cleanly. */
function rawSpeech(body: Record<string, unknown>): Promise<{ status: number; headers: IncomingHttpHeaders; bytes: Buffer; complete: boolean }> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest(`${harness.baseUrl}/audio/speech`, {
      method: 'POST',
      agent: false,
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) },
    });
    outgoing.on('error', reject);
    outgoing.on('response', (incoming) => {
      const chunks: Buffer[] = [];
      const settle = () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, bytes: Buffer.concat(chunks), complete: incoming.complete });
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('error', settle);
      incoming.on('end', settle);
    });
    outgoing.end(payload);
  });
}

function speak(body: Record<string, unknown>) {
  return send(harness, { path: '/audio/speech', body: { model: 'acme/tts', input: 'Hello there', ...body } });
}

async function speakBytes(body: Record<string, unknown>): Promise<{ status: number; headers: Headers; bytes: Buffer }> {
  const response = await fetch(`${harness.baseUrl}/audio/speech`, {
    method: 'POST',
    headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'acme/tts', input: 'Hello there', ...body }),
  });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

function upstreamBodies(): Record<string, unknown>[] {
  return harness.sim.requests().filter((request) => request.path === '/v1/audio/speech').map((request) => request.body as Record<string, unknown>);
}

describe('POST /audio/speech with the official client', () => {
  it('returns valid MP3 audio by default, relayed with no Content-Length', async () => {
    const response = await harness.client.audio.speech.create({ model: 'acme/tts', voice: 'alloy', input: 'Hello there, this is a test.' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    expect(response.headers.get('content-length')).toBeNull();
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
    expect(response.headers.get('x-generation-id')).toMatch(/^gen-/);
    expect(response.headers.get('x-service-voice')).toBeNull();
    const audio = Buffer.from(await response.arrayBuffer());
    const metadata = await parseBuffer(audio, { mimeType: 'audio/mpeg' });
    expect(metadata.format.container).toMatch(/MPEG/);
    expect(metadata.format.duration).toBeGreaterThan(1);
  });

  it.each([
    ['wav', 'audio/wav'],
    ['pcm', 'audio/pcm'],
    ['mulaw', 'audio/basic'],
    ['alaw', 'audio/x-alaw-basic'],
  ] as const)('response_format %s is sent as %s', async (format, contentType) => {
    const response = await harness.client.audio.speech.create({ model: 'acme/tts', voice: 'alloy', input: 'Hello there', response_format: format as 'wav' });
    expect(response.headers.get('content-type')).toBe(contentType);
    const audio = Buffer.from(await response.arrayBuffer());
    expect(audio.length).toBeGreaterThan(0);
    if (format === 'wav') expect((await parseBuffer(audio, { mimeType: 'audio/wav' })).format.duration).toBeGreaterThan(0);
  });
});

describe('routing to speech endpoints declaring the voice, codec and speed', () => {
  it('a voice only one endpoint declares goes there, spoken as asked, with no X-Service-Voice', async () => {
    harness.sim.clearRequests();
    const reply = await speakBytes({ voice: 'nova', response_format: 'wav' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-provider-name')).toBe('Sim B');
    expect(reply.headers.get('x-service-voice')).toBeNull();
    expect(upstreamBodies()[0]).toMatchObject({ model: 'tts-b', voice: 'nova', response_format: 'wav' });
  });

  it('a codec only one endpoint declares narrows routing to it; one none declares is 503', async () => {
    expect((await speakBytes({ voice: 'alloy', response_format: 'pcm' })).headers.get('x-provider-name')).toBe('Sim A');
    const refused = await speak({ voice: 'nova', response_format: 'mp3' });
    expect(refused.status).toBe(503);
    expect(JSON.stringify((refused.json as ErrorEnvelope).error.metadata.rejections)).toContain('does not declare the mp3 codec');
  });

  it('speed goes only where a declared range covers it', async () => {
    harness.sim.clearRequests();
    expect((await speakBytes({ voice: 'alloy', speed: 1.5 })).status).toBe(200);
    expect(upstreamBodies()[0]?.speed).toBe(1.5);
    const outside = await speak({ voice: 'alloy', speed: 3 });
    expect(outside.status).toBe(503);
    expect(JSON.stringify((outside.json as ErrorEnvelope).error.metadata.rejections)).toContain('speed 3 outside its range 0.5 to 2');
    expect((await speak({ voice: 'nova', response_format: 'wav', speed: 1.2 })).status).toBe(503);
  });

  it('a model that synthesises no speech is refused with 503', async () => {
    const reply = await speak({ model: 'acme/chat' });
    expect(reply.status).toBe(503);
    expect((reply.json as ErrorEnvelope).error.message).toContain('does not synthesise speech');
  });

  it('a chat model with audio output is not a speech model', async () => {
    const reply = await speak({ model: 'acme/chat-audio', voice: 'alloy' });
    expect(reply.status).toBe(503);
    expect((reply.json as ErrorEnvelope).error.message).toContain('does not synthesise speech');
  });

  it('a speech model is never sent a conversation', async () => {
    const reply = await send(harness, { path: '/chat/completions', body: { model: 'acme/tts', messages: [{ role: 'user', content: 'Hi' }] } });
    expect(reply.status).toBe(503);
    expect(JSON.stringify((reply.json as ErrorEnvelope).error.metadata.rejections)).toContain('serves only speech');
  });
});

describe('settings and provider options', () => {
  it('instructions and seed reach an endpoint declaring them; instructions are left out where undeclared', async () => {
    harness.sim.clearRequests();
    expect((await speakBytes({ voice: 'alloy', instructions: 'whisper', seed: 42 })).status).toBe(200);
    expect(upstreamBodies()[0]).toMatchObject({ instructions: 'whisper', seed: 42 });
    expect((await speakBytes({ voice: 'nova', response_format: 'wav', instructions: 'whisper' })).status).toBe(200);
    expect(upstreamBodies()[1]).not.toHaveProperty('instructions');
  });

  it('provider.options entries the endpoint publishes reach it unchanged; an unpublished name is a 400 naming it', async () => {
    harness.sim.clearRequests();
    expect((await speakBytes({ voice: 'alloy', provider: { options: { 'sim-a': { emotion: 'calm' } } } })).status).toBe(200);
    expect(upstreamBodies()[0]?.emotion).toBe('calm');
    const refused = await speak({ voice: 'alloy', provider: { options: { 'sim-a': { pitch: 3 } } } });
    expect(refused.status).toBe(400);
    expect((refused.json as ErrorEnvelope).error.message.startsWith('provider.options.sim-a.pitch')).toBe(true);
  });
});

describe('voice resolution', () => {
  it('rule 2: no endpoint declares the voice and the model offers exactly one (default): it speaks, named in X-Service-Voice', async () => {
    harness.sim.clearRequests();
    const reply = await speakBytes({ model: 'acme/default-voice', voice: 'shimmer', response_format: 'wav' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-service-voice')).toBe('default');
    expect(upstreamBodies()[0]?.voice).toBe('default');
  });

  it('rule 2: offers are united across endpoints (one declares two voices, one a single voice)', async () => {
    const reply = await speakBytes({ model: 'acme/one-offered', voice: 'shimmer', response_format: 'wav' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-service-voice')).toBe('cedar');
    expect(reply.headers.get('x-provider-name')).toBe('Sim B');
  });

  it('rule 3: several or no voices offered is a 400 listing metadata.declared_voices', async () => {
    harness.sim.clearRequests();
    const reply = await speak({ model: 'acme/many-voices', voice: 'shimmer', response_format: 'wav' });
    expect(reply.status).toBe(400);
    const { error } = reply.json as ErrorEnvelope;
    expect(error.metadata.error_type).toBe('invalid_request');
    expect(error.metadata.declared_voices).toEqual(['amber', 'birch']);
    expect(error.message).toContain('amber, birch');
    expect(upstreamBodies()).toHaveLength(0);
  });

  it('rule 4: with voice left out no X-Service-Voice is sent and no voice goes upstream', async () => {
    harness.sim.clearRequests();
    const reply = await speakBytes({ model: 'acme/default-voice', response_format: 'wav' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-service-voice')).toBeNull();
    expect(upstreamBodies()[0]).not.toHaveProperty('voice');
  });
});

describe('failures before and after the first byte', () => {
  it('fails over on an error status and on a body that ends before any byte', async () => {
    harness.sim.clearRequests();
    const reply = await speakBytes({ model: 'acme/flaky', voice: 'alloy', response_format: 'wav' });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-provider-name')).toBe('Sim C');
    expect(upstreamBodies()).toHaveLength(3);
    expect((await parseBuffer(reply.bytes, { mimeType: 'audio/wav' })).format.duration).toBeGreaterThan(0);
  });

  it('a synthesis no endpoint performs is a provider error and bills nothing', async () => {
    const before = await accountMoney(harness);
    const reply = await speak({ model: 'acme/down', voice: 'alloy', response_format: 'wav' });
    expect(reply.status).toBe(502);
    expect((reply.json as ErrorEnvelope).error.metadata.provider_status).toBe(500);
    expect(await accountMoney(harness)).toEqual(before);
  });

  it('after the first byte the status stays 200, the connection closes without the final chunk (an incomplete body) and nothing is billed', async () => {
    const before = await accountMoney(harness);
    const whole = await speakBytes({ model: 'acme/flaky', voice: 'alloy', response_format: 'wav', input: 'A sentence long enough to be cut.' });
    const response = await fetch(`${harness.baseUrl}/audio/speech`, {
      method: 'POST',
      headers: { authorization: `Bearer ${harness.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'acme/breaks', voice: 'alloy', response_format: 'wav', input: 'A sentence long enough to be cut.' }),
    });
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
    const raw = await rawSpeech({ model: 'acme/breaks', voice: 'alloy', response_format: 'wav', input: 'A sentence long enough to be cut.' });
    expect(raw.status).toBe(200);
    expect(raw.headers['transfer-encoding']).toBe('chunked');
    expect(raw.complete).toBe(false);
    expect(raw.bytes.length).toBeGreaterThan(0);
    expect(raw.bytes.length).toBeLessThan(whole.bytes.length);
    expect(whole.bytes.subarray(0, raw.bytes.length).equals(raw.bytes)).toBe(true);
    const afterBreak = await accountMoney(harness);
    const wholeCost = parseUsd('0.00001') * BigInt([...'A sentence long enough to be cut.'].length);
    expect(before.balance - afterBreak.balance).toBe(wholeCost);
    expect(afterBreak.reserved).toBe(0n);
    const record = await send(harness, { path: `/generation?id=${response.headers.get('x-generation-id') ?? ''}` });
    const data = (record.json as { data: { status: string; cost_usd: string } }).data;
    expect(data.status).toBe('error');
    expect(data.cost_usd).toBe('0');
  });
});

describe('billing per input character', () => {
  it('charges characters × the character price, counted before sending, recorded with the quantity', async () => {
    const input = 'Héllo 👋 world';
    const before = await accountMoney(harness);
    const reply = await speakBytes({ voice: 'alloy', input });
    expect(reply.status).toBe(200);
    const characters = 13;
    expect([...input].length).toBe(characters);
    const exact = parseUsd('0.000015') * BigInt(characters);
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBe(exact);
    const record = await send(harness, { path: `/generation?id=${reply.headers.get('x-generation-id') ?? ''}` });
    const data = (record.json as { data: { cost_usd: string; cost_lines: unknown[] } }).data;
    expect(data.cost_usd).toBe(formatUsd(exact));
    expect(data.cost_lines).toEqual([{ key: 'character', quantity: '13', amount_usd: formatUsd(exact) }]);
  });

  it('an endpoint publishing no character price records the characters unpriced and charges nothing', async () => {
    const before = await accountMoney(harness);
    const reply = await speakBytes({ voice: 'nova', response_format: 'wav' });
    expect(reply.headers.get('x-provider-name')).toBe('Sim B');
    expect(await accountMoney(harness)).toEqual(before);
    const record = await send(harness, { path: `/generation?id=${reply.headers.get('x-generation-id') ?? ''}` });
    expect((record.json as { data: { cost_lines: unknown[] } }).data.cost_lines).toEqual([{ key: 'character', quantity: '11', amount_usd: null }]);
  });
});

describe('voice cloning', () => {
  const sample = buildWav(0.25);

  it('a multipart file sample goes only to an endpoint declaring cloning and its format, and is retained nowhere', async () => {
    harness.sim.clearRequests();
    const form = new FormData();
    form.append('model', 'acme/tts');
    form.append('input', 'Speak like me');
    form.append('voice', 'alloy');
    form.append('response_format', 'wav');
    form.append('transcript', 'one two three');
    form.append('provider', JSON.stringify({ ignore: ['sim-c'] }));
    form.append('file', new Blob([new Uint8Array(sample)], { type: 'audio/wav' }), 'me.wav');
    const response = await fetch(`${harness.baseUrl}/audio/speech`, { method: 'POST', headers: { authorization: `Bearer ${harness.key}` }, body: form });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-provider-name')).toBe('Sim B');
    await response.arrayBuffer();
    const upstream = upstreamBodies()[0];
    expect(upstream?.input_references).toEqual([{ type: 'input_audio', input_audio: { data: sample.toString('base64'), format: 'wav' }, transcript: 'one two three' }]);
    expect(upstream).not.toHaveProperty('voice');
    const record = await send(harness, { path: `/generation?id=${response.headers.get('x-generation-id') ?? ''}` });
    expect(record.text).not.toContain(sample.toString('base64').slice(0, 64));
  });

  it('a JSON sample in a format no cloning endpoint declares is refused with 503', async () => {
    const mp3 = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(64)]);
    const reply = await speak({ response_format: 'wav', input_references: [{ type: 'input_audio', input_audio: { data: mp3.toString('base64'), format: 'mp3' } }] });
    expect(reply.status).toBe(503);
    expect(JSON.stringify((reply.json as ErrorEnvelope).error.metadata.rejections)).toContain('does not accept mp3 voice samples');
  });

  it.each([
    [{ data: `data:audio/wav;base64,${buildWav(0.1).toString('base64')}`, format: 'wav' }, 'input_references[0].input_audio.data'],
    [{ data: buildWav(0.1).toString('base64'), format: 'flac' }, 'input_references[0].input_audio.format'],
    [{ data: buildWav(0.1).toString('base64'), format: 'aiff' }, 'input_references[0].input_audio.format'],
  ])('a malformed JSON sample is a 400 naming the field (%#)', async (inputAudio, field) => {
    const reply = await speak({ input_references: [{ type: 'input_audio', input_audio: inputAudio }] });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message.startsWith(field)).toBe(true);
  });

  it('a multipart sample over 5 MiB is refused with 413 before any provider call', async () => {
    harness.sim.clearRequests();
    const big = Buffer.concat([buildWav(0.1), Buffer.alloc(5 * 1024 * 1024)]);
    const form = new FormData();
    form.append('model', 'acme/tts');
    form.append('input', 'x');
    form.append('file', new Blob([new Uint8Array(big)]), 'big.wav');
    const response = await fetch(`${harness.baseUrl}/audio/speech`, { method: 'POST', headers: { authorization: `Bearer ${harness.key}` }, body: form });
    expect(response.status).toBe(413);
    expect(((await response.json()) as ErrorEnvelope).error.message).toMatch(/^file: /);
    expect(upstreamBodies()).toHaveLength(0);
  });

  it('a multipart file that is no accepted recording, and a provider field that is not JSON, are 400s naming them', async () => {
    const form = new FormData();
    form.append('model', 'acme/tts');
    form.append('input', 'x');
    form.append('file', new Blob([new TextEncoder().encode("plain text")]), 'notes.txt');
    const notAudio = await fetch(`${harness.baseUrl}/audio/speech`, { method: 'POST', headers: { authorization: `Bearer ${harness.key}` }, body: form });
    expect(notAudio.status).toBe(400);
    expect(((await notAudio.json()) as ErrorEnvelope).error.message).toMatch(/^file: /);
    const badProvider = new FormData();
    badProvider.append('model', 'acme/tts');
    badProvider.append('input', 'x');
    badProvider.append('provider', '{not json');
    const reply = await fetch(`${harness.baseUrl}/audio/speech`, { method: 'POST', headers: { authorization: `Bearer ${harness.key}` }, body: badProvider });
    expect(reply.status).toBe(400);
    expect(((await reply.json()) as ErrorEnvelope).error.message).toMatch(/^provider: /);
  });
});

describe('malformed multipart forms are 400s, never 500s', () => {
  async function post(body: BodyInit, headers: Record<string, string> = {}): Promise<{ status: number; message: string }> {
    const response = await fetch(`${harness.baseUrl}/audio/speech`, { method: 'POST', headers: { authorization: `Bearer ${harness.key}`, ...headers }, body });
    return { status: response.status, message: ((await response.json()) as ErrorEnvelope).error.message };
  }

  it('an empty form names model; two files, too many fields and a truncated form are refused', async () => {
    expect(await post(new FormData())).toMatchObject({ status: 400, message: expect.stringMatching(/^model/) as unknown });
    const two = new FormData();
    two.append('model', 'acme/tts');
    two.append('input', 'x');
    for (const name of ['a.wav', 'b.wav']) two.append('file', new Blob([new Uint8Array(buildWav(0.1))]), name);
    expect(await post(two)).toEqual({ status: 400, message: 'file: one voice sample per request' });
    const many = new FormData();
    for (let i = 0; i < 40; i += 1) many.append(`field${i}`, 'v');
    expect(await post(many)).toEqual({ status: 400, message: 'body: too many form fields' });
    const truncated = '--xyz\r\nContent-Disposition: form-data; name="model"\r\n\r\nacme';
    expect(await post(truncated, { 'content-type': 'multipart/form-data; boundary=xyz' })).toEqual({ status: 400, message: 'body: malformed multipart form' });
  });
});

describe('speech request validation', () => {
  it.each([
    [{ input: 'x'.repeat(15_001) }, 'input'],
    [{ speed: 0.1 }, 'speed'],
    [{ speed: 4.5 }, 'speed'],
    [{ seed: -1 }, 'seed'],
    [{ max_new_tokens: 4097 }, 'max_new_tokens'],
    [{ response_format: 'ogg' }, 'response_format'],
  ])('out-of-range members are 400 naming the field (%#)', async (member, field) => {
    const reply = await speak({ voice: 'alloy', ...member });
    expect(reply.status).toBe(400);
    expect((reply.json as ErrorEnvelope).error.message.startsWith(field)).toBe(true);
  });

  it('15,000 characters are accepted', async () => {
    expect((await speakBytes({ voice: 'alloy', input: 'x'.repeat(15_000), response_format: 'wav' })).status).toBe(200);
  });
});

describe('GET /speech/models', () => {
  interface SpeechModel {
    id: string;
    canonical_slug: string;
    architecture: { output_modalities: string[] };
    pricing: Record<string, string>;
    endpoint_count: number;
    supported_voices: string[] | null;
    speech: { voices: string[]; formats: string[]; min_speed?: number; max_speed?: number };
  }

  it('lists each served speech model with the union of voices and formats over its live endpoints', async () => {
    const reply = await send(harness, { path: '/speech/models' });
    expect(reply.status).toBe(200);
    const models = (reply.json as { data: SpeechModel[] }).data;
    const ids = models.map((model) => model.id);
    expect(ids).toContain('acme/tts');
    expect(ids).not.toContain('acme/chat');
    expect(ids).not.toContain('acme/chat-audio');
    const tts = models.find((model) => model.id === 'acme/tts');
    expect(tts?.canonical_slug).toBe('acme/tts');
    expect(tts?.architecture.output_modalities).toEqual(['speech']);
    expect(tts?.endpoint_count).toBe(2);
    expect(tts?.supported_voices).toEqual(['alloy', 'verse', 'nova']);
    expect(tts?.speech).toEqual({ voices: ['alloy', 'verse', 'nova'], formats: ['mp3', 'wav', 'pcm', 'mulaw', 'alaw'], min_speed: 0.5, max_speed: 2 });
  });

  it('leaves min_speed and max_speed out together when no endpoint declares a range', async () => {
    const reply = await send(harness, { path: '/speech/models' });
    const flaky = (reply.json as { data: SpeechModel[] }).data.find((model) => model.id === 'acme/many-voices');
    expect(flaky?.speech).toEqual({ voices: ['amber', 'birch'], formats: ['wav'] });
  });

  it('needs no key: a catalogue read, counted against the client address', async () => {
    const reply = await send(harness, { path: '/speech/models', key: null });
    expect(reply.status).toBe(200);
    expect(reply.headers.get('x-ratelimit-limit')).not.toBeNull();
  });
});
