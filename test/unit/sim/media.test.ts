import { describe, expect, it } from 'vitest';
import { sliceBase64 } from '../../../src/sim/media-plan.js';
import { buildPng, crc32 } from '../../../src/sim/png-image.js';
import { buildWav } from '../../../src/sim/wav-audio.js';
import { decodePng, decodeWav } from './media-files.js';
import { deltas } from './sse-events.js';
import type { SimReply } from './sim-session.js';
import { messageOf, useSimulator, userMessage } from './sim-session.js';

const sim = useSimulator();

const DATA_URL = 'data:image/png;base64,';

function pngOfUrl(url: string | undefined): Buffer {
  if (!url?.startsWith(DATA_URL)) throw new Error(`not a PNG data URL: ${url ?? 'none'}`);
  return Buffer.from(url.slice(DATA_URL.length), 'base64');
}

describe('PNG and WAV files', () => {
  it('buildPng makes a valid 8-bit grayscale PNG of exactly W×H pixels', () => {
    const png = decodePng(buildPng(7, 3));
    expect(png).toMatchObject({ width: 7, height: 3, bitDepth: 8, colourType: 0 });
    expect(png.scanlines.length).toBe(3 * (7 + 1));
  });

  it('the PNG chunk CRC is the standard CRC-32', () => {
    expect(crc32(Buffer.from('IEND', 'latin1'))).toBe(0xae426082);
  });

  it('buildWav makes a RIFF WAVE file of PCM 16-bit mono 8000 Hz silence of the given length', () => {
    const wav = decodeWav(buildWav(1.5));
    expect(wav).toEqual({
      format: 1, channels: 1, sampleRate: 8000, bitsPerSample: 16, riffSize: 36 + 24000, dataBytes: 24000, seconds: 1.5, silent: true,
    });
  });

  it('sliceBase64 cuts at multiples of 4 characters and the slices join back', () => {
    const data = buildWav(0.01).toString('base64');
    const slices = sliceBase64(data, 5);
    expect(slices).toHaveLength(5);
    expect(slices.join('')).toBe(data);
    expect(slices.slice(0, -1).every((s) => s.length % 4 === 0)).toBe(true);
    expect(slices.every((s) => Buffer.from(s, 'base64').toString('base64') === s)).toBe(true);
  });
});

describe('image=WxH', () => {
  it('answers with text and a real W×H PNG data URL in message.images', async () => {
    const message = messageOf(await sim.json<SimReply>({ model: 'chat;image=512x256;tokens=2', messages: userMessage('draw') }));
    expect(message.content).toBe('Hello from');
    expect(message.images).toHaveLength(1);
    expect(message.images?.[0]?.type).toBe('image_url');
    expect(decodePng(pngOfUrl(message.images?.[0]?.image_url.url))).toMatchObject({ width: 512, height: 256 });
  });

  it('streams the picture whole in one chunk of delta.images after the text', async () => {
    const list = deltas(await sim.stream({ model: 'chat;image=16x9;tokens=2', messages: userMessage('draw') }));
    const withImages = list.filter((d) => 'images' in d);
    expect(withImages).toHaveLength(1);
    expect(list.indexOf(withImages[0] ?? {})).toBe(3);
    const images = withImages[0]?.images as Array<{ image_url: { url: string } }>;
    expect(decodePng(pngOfUrl(images[0]?.image_url.url))).toMatchObject({ width: 16, height: 9 });
  });

  it('image_url passes an https URL through unchanged', async () => {
    const url = 'https://images.example.com/cat.png?size=large';
    const message = messageOf(await sim.json<SimReply>({ model: `chat;image_url=${url}`, messages: userMessage('draw') }));
    expect(message.images).toEqual([{ type: 'image_url', image_url: { url } }]);
  });

  it('image_url refuses a URL that is not https', async () => {
    const res = await sim.chat({ model: 'chat;image_url=http://example.com/a.png', messages: userMessage('draw') });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('image_url');
  });

  it('refuses sizes that are zero, malformed or over 4096', async () => {
    for (const size of ['0x10', '10', '5000x5']) {
      const res = await sim.chat({ model: `chat;image=${size}`, messages: userMessage('draw') });
      expect(res.status).toBe(400);
    }
  });
});

describe('image_only', () => {
  it('non-streamed: content is the empty string, never null, and the picture is there', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;image=4x4;image_only', messages: userMessage('draw') });
    expect(messageOf(reply).content).toBe('');
    expect(messageOf(reply).images).toHaveLength(1);
    expect(reply.choices[0]?.finish_reason).toBe('stop');
  });

  it('streamed: no content delta at all, only the picture', async () => {
    const list = deltas(await sim.stream({ model: 'chat;image=4x4;image_only', messages: userMessage('draw') }));
    expect(list.some((d) => typeof d.content === 'string')).toBe(false);
    expect(list.filter((d) => 'images' in d)).toHaveLength(1);
  });

  it('is refused without an image', async () => {
    const res = await sim.chat({ model: 'chat;image_only', messages: userMessage('draw') });
    expect(res.status).toBe(400);
    expect(await res.text()).toContain('image_only');
  });
});

describe('audio=SECONDS', () => {
  it('non-streamed: message.audio holds a real WAV of that length, the answer as transcript, content null', async () => {
    const reply = await sim.json<SimReply>({ model: 'chat;audio=1.5;tokens=3', messages: userMessage('say it') });
    const audio = messageOf(reply).audio;
    expect(messageOf(reply).content).toBeNull();
    expect(audio?.id).toMatch(/^audio_sim\d+$/);
    expect(audio?.transcript).toBe('Hello from the');
    expect(audio?.expires_at).toBeGreaterThan(reply.created);
    const wav = decodeWav(Buffer.from(audio?.data ?? '', 'base64'));
    expect(wav).toMatchObject({ channels: 1, sampleRate: 8000, bitsPerSample: 16, seconds: 1.5 });
  });

  it('streamed: delta.audio fragments with base64 slices at multiples of 4 chars that rebuild the same WAV', async () => {
    const request = { model: 'chat;audio=0.5;tokens=4', messages: userMessage('say it') };
    const fragments = deltas(await sim.stream(request)).filter((d) => 'audio' in d).map((d) => d.audio as Record<string, unknown>);
    expect(fragments).toHaveLength(4);
    const whole = messageOf(await sim.json<SimReply>(request)).audio;
    expect(fragments.every((f) => f.id === fragments[0]?.id)).toBe(true);
    expect(fragments[0]?.expires_at).toEqual(expect.any(Number));
    expect(fragments.slice(1).some((f) => 'expires_at' in f)).toBe(false);
    const slices = fragments.map((f) => String(f.data ?? ''));
    expect(slices.every((s) => s.length % 4 === 0)).toBe(true);
    expect(slices.join('')).toBe(whole?.data);
    expect(fragments.map((f) => f.transcript).join('')).toBe(whole?.transcript);
  });

  it('streamed audio sends no content deltas', async () => {
    const list = deltas(await sim.stream({ model: 'chat;audio=0.2', messages: userMessage('say it') }));
    expect(list.some((d) => typeof d.content === 'string' && d.content !== '')).toBe(false);
    expect(list[0]).toMatchObject({ role: 'assistant', content: null });
  });

  it('refuses more than 60 seconds and values that are not decimals', async () => {
    for (const seconds of ['61', '1,5', '-1']) {
      expect((await sim.chat({ model: `chat;audio=${seconds}`, messages: userMessage('x') })).status).toBe(400);
    }
  });
});
