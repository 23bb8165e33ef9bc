import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import OpenAI from 'openai';
import { startSimulator, type RunningSimulator } from '../../../src/sim/server.js';
import { decodePng } from './media-files.js';

let sim: RunningSimulator;
let client: OpenAI;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
  client = new OpenAI({ baseURL: `${sim.url}/v1`, apiKey: 'sim', maxRetries: 0 });
});

afterAll(async () => sim.close());

function pngOf(b64: string | undefined): Buffer {
  if (b64 === undefined) throw new Error('no b64_json');
  return Buffer.from(b64, 'base64');
}

async function post(body: unknown): Promise<{ status: number; json: { error?: { param: string | null; message: string } } & Record<string, unknown> }> {
  const response = await fetch(`${sim.url}/v1/images/generations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, json: (await response.json()) as never };
}

describe('POST /v1/images/generations', () => {
  test('the official client gets n decodable PNGs of the asked size, with gpt-image usage and settings', async () => {
    const reply = await client.images.generate({ model: 'image', prompt: 'a red lighthouse', n: 2, size: '64x48', quality: 'low' });
    const pictures = (reply.data ?? []).map((item) => decodePng(pngOf(item.b64_json)));
    expect(pictures.map(({ width, height }) => [width, height])).toEqual([[64, 48], [64, 48]]);
    expect(pictures[0]?.scanlines).not.toEqual(pictures[1]?.scanlines);
    expect(reply).toMatchObject({ size: '64x48', quality: 'low', output_format: 'png', background: 'opaque' });
    // The prompt is 3 o200k tokens; 272 tokens a 1024×1024 picture at low quality, scaled by area:
    // round(272 · 3072 / 1048576) = 1 a picture.
    expect(reply.usage).toEqual({
      input_tokens: 3, input_tokens_details: { text_tokens: 3, image_tokens: 0 },
      output_tokens: 2, output_tokens_details: { image_tokens: 2, text_tokens: 0 }, total_tokens: 5,
    });
  });

  test('the same prompt draws the same bytes; another prompt other bytes; auto is 1024x1024; sides up to 2048', async () => {
    const first = await client.images.generate({ model: 'image', prompt: 'a quiet yard', size: '32x32' });
    const again = await client.images.generate({ model: 'image', prompt: 'a quiet yard', size: '32x32' });
    const other = await client.images.generate({ model: 'image', prompt: 'a busy yard', size: '32x32' });
    expect(first.data?.[0]?.b64_json).toBe(again.data?.[0]?.b64_json);
    expect(decodePng(pngOf(other.data?.[0]?.b64_json)).scanlines).not.toEqual(decodePng(pngOf(first.data?.[0]?.b64_json)).scanlines);
    const auto = await client.images.generate({ model: 'image', prompt: 'x', size: 'auto', quality: 'high' });
    expect(decodePng(pngOf(auto.data?.[0]?.b64_json))).toMatchObject({ width: 1024, height: 1024 });
    expect(auto.usage?.output_tokens).toBe(4160);
    const widest = await client.images.generate({ model: 'image', prompt: 'x', size: '2048x4' });
    expect(decodePng(pngOf(widest.data?.[0]?.b64_json))).toMatchObject({ width: 2048, height: 4 });
  });

  test('a transparent background is a grayscale-with-alpha PNG', async () => {
    const reply = await client.images.generate({ model: 'image', prompt: 'glass', size: '8x8', background: 'transparent' });
    expect(decodePng(pngOf(reply.data?.[0]?.b64_json)).colourType).toBe(4);
    expect(reply.background).toBe('transparent');
  });

  test('response_format url names a PNG the simulator serves; dall-e models answer urls by default without usage', async () => {
    const asked = await client.images.generate({ model: 'image', prompt: 'a map', size: '16x16', response_format: 'url' });
    const url = asked.data?.[0]?.url ?? '';
    expect(url.startsWith(`${sim.url}/v1/images/files/`)).toBe(true);
    const served = await fetch(url);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect(decodePng(Buffer.from(await served.arrayBuffer()))).toMatchObject({ width: 16, height: 16 });
    const dallE = await client.images.generate({ model: 'dall-e-3', prompt: 'a map [[sim ttft=1]]', size: '16x16' });
    expect(Object.keys(dallE).sort()).toEqual(['created', 'data']);
    expect(dallE.data?.[0]).toMatchObject({ url: expect.stringContaining('/v1/images/files/'), revised_prompt: 'a map' });
    expect((await fetch(`${sim.url}/v1/images/files/img-none.png`)).status).toBe(404);
  });

  test.each([
    ['size', { size: '4096x4096' }],
    ['size', { size: '2049x16' }],
    ['size', { size: 'big' }],
    ['n', { n: 11 }],
    ['n', { n: 0 }],
    ['output_format', { output_format: 'jpeg' }],
    ['output_format', { output_format: 'webp' }],
    ['output_compression', { output_compression: 80 }],
    ['quality', { quality: 'ultra' }],
    ['response_format', { response_format: 'file' }],
    ['stream', { stream: 'yes' }],
    ['partial_images', { stream: true, partial_images: 4 }],
    ['prompt', { prompt: '' }],
  ])('an unusable value is refused with 400 naming %s', async (param, member) => {
    const { status, json } = await post({ model: 'image', prompt: 'x', ...member });
    expect(status).toBe(400);
    expect(json.error?.param).toBe(param);
  });

  test('stream: partial pictures, then each picture with the call\'s usage, as OpenAI\'s client reads them; dall-e refuses it', async () => {
    const stream = await client.images.generate({ model: 'image', prompt: 'x', size: '64x32', n: 2, stream: true, partial_images: 2 });
    const events: Array<{ type: string; partial_image_index?: number; b64_json: string; usage?: unknown }> = [];
    for await (const event of stream) events.push(event);
    expect(events.map((event) => event.type)).toEqual([
      'image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed',
      'image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed',
    ]);
    expect(events.filter((event) => event.type === 'image_generation.partial_image').map((event) => event.partial_image_index)).toEqual([0, 1, 2, 3]);
    const whole = await client.images.generate({ model: 'image', prompt: 'x', size: '64x32', n: 2 });
    expect(events[2]?.b64_json).toBe(whole.data?.[0]?.b64_json);
    expect(events[0]?.b64_json).not.toBe(events[2]?.b64_json);
    expect(events[5]?.usage).toEqual(whole.usage);
    const refused = await post({ model: 'dall-e-3', prompt: 'x', stream: true });
    expect([refused.status, refused.json.error?.param]).toEqual([400, 'stream']);
  });

  test('behaviours: error before any byte, a slow answer, refusal of a parameter, no usage', async () => {
    await expect(client.images.generate({ model: 'image;error=503', prompt: 'x', size: '4x4' })).rejects.toMatchObject({ status: 503 });
    const limited = await fetch(`${sim.url}/v1/images/generations`, { method: 'POST', body: JSON.stringify({ model: 'image', prompt: 'x [[sim error=429 retry_after=2]]' }) });
    expect([limited.status, limited.headers.get('retry-after')]).toEqual([429, '2']);
    const started = performance.now();
    await client.images.generate({ model: 'image;ttft=150', prompt: 'x', size: '4x4' });
    expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    const refused = await post({ model: 'image;refuse_param=quality', prompt: 'x', size: '4x4', quality: 'low' });
    expect(refused).toMatchObject({ status: 400, json: { error: { param: 'quality', code: 'unsupported_parameter' } } });
    expect((await client.images.generate({ model: 'image;no_usage', prompt: 'x', size: '4x4' })).usage).toBeUndefined();
    const unknown = await post({ model: 'image;sparkle', prompt: 'x' });
    expect(unknown).toMatchObject({ status: 400, json: { error: { param: 'model' } } });
    await expect(fetch(`${sim.url}/v1/images/generations`, { method: 'POST', body: JSON.stringify({ model: 'image;disconnect_after=0', prompt: 'x' }) })).rejects.toThrow();
  });
});
