import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBuffer } from 'music-metadata';
import { startSimulator, type RunningSimulator } from '../../../src/sim/server.js';
import { encodeSilence, PCM_SAMPLE_RATE } from '../../../src/sim/speech-audio.js';

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => sim.close());

function speech(body: Record<string, unknown>): Promise<Response> {
  return fetch(`${sim.url}/v1/audio/speech`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('simulator speech audio', () => {
  it('MP3 silence is a run of valid MPEG-1 Layer III frames of the asked length', async () => {
    const metadata = await parseBuffer(encodeSilence('mp3', 2), { mimeType: 'audio/mpeg' });
    expect(metadata.format.codec).toMatch(/MPEG 1 Layer 3/);
    expect(metadata.format.sampleRate).toBe(44_100);
    expect(metadata.format.duration).toBeCloseTo(2, 1);
  });

  it('WAV is a valid RIFF file; PCM is 16-bit samples at 24 kHz; G.711 is one byte a sample at 8 kHz', async () => {
    expect((await parseBuffer(encodeSilence('wav', 1.5), { mimeType: 'audio/wav' })).format.duration).toBeCloseTo(1.5, 3);
    expect(encodeSilence('pcm', 1).length).toBe(PCM_SAMPLE_RATE * 2);
    expect(encodeSilence('mulaw', 1)).toEqual(Buffer.alloc(8000, 0xff));
    expect(encodeSilence('alaw', 1)).toEqual(Buffer.alloc(8000, 0xd5));
  });
});

describe('POST /v1/audio/speech', () => {
  it('answers audio of the asked codec, as long as the input asks, in chunks without a length', async () => {
    const response = await speech({ model: 'tts', input: 'x'.repeat(40), voice: 'alloy', response_format: 'wav' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('audio/wav');
    expect(response.headers.get('content-length')).toBeNull();
    const metadata = await parseBuffer(Buffer.from(await response.arrayBuffer()), { mimeType: 'audio/wav' });
    expect(metadata.format.duration).toBeCloseTo(2, 2);
  });

  it('defaults to mp3 and divides the length by speed', async () => {
    const response = await speech({ model: 'tts', input: 'x'.repeat(40), speed: 2 });
    expect(response.headers.get('content-type')).toBe('audio/mpeg');
    const metadata = await parseBuffer(Buffer.from(await response.arrayBuffer()), { mimeType: 'audio/mpeg' });
    expect(metadata.format.duration).toBeCloseTo(1, 1);
  });

  it('refuses codecs it cannot produce validly, and a malformed voice sample', async () => {
    expect((await speech({ model: 'tts', input: 'x', response_format: 'opus' })).status).toBe(400);
    expect((await speech({ model: 'tts', input: 'x', input_references: [{ type: 'input_audio', input_audio: { data: '%%', format: 'wav' } }] })).status).toBe(400);
  });

  it('error=STATUS answers that status before any byte', async () => {
    const response = await speech({ model: 'tts;error=503', input: 'x' });
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { message: string } }).error.message).toContain('503');
  });

  it('fail_after=N drops the connection after N chunks', async () => {
    const response = await speech({ model: 'tts;fail_after=1', input: 'x'.repeat(40), response_format: 'wav' });
    expect(response.status).toBe(200);
    await expect(response.arrayBuffer()).rejects.toThrow();
  });
});
