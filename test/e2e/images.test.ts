import { randomBytes } from 'node:crypto';
import { imageSize } from 'image-size';
import { OpenRouter } from '@openrouter/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUsd } from '../../src/billing/money.js';
import { generatedPng } from '../../src/sim/images-route.js';
import { accountMoney, generationRecord, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

const PRICES = { prompt: '0.000005', image_output: '0.04', image_megapixel: '0.0123', image_output_token: '0.00004' };

function imageEndpoint(provider: string, upstream: string, extra: Record<string, unknown> = {}): Record<string, unknown> & { provider: string; upstream_model: string } {
  return {
    provider,
    upstream_model: upstream,
    context_length: 8192,
    max_completion_tokens: 8192,
    input_modalities: ['text'],
    output_modalities: ['image'],
    supported_parameters: [],
    pricing: PRICES,
    image_envelope: { sizes: ['256x256', '512x256', '1024x1024'], formats: ['png'], max_images: 4 },
    render_parameters: { image: { quality: { type: 'string', enum: ['low', 'medium', 'high'] } } },
    ...extra,
  };
}

let harness: Harness;
let client: OpenAI;

beforeAll(async () => {
  harness = await startHarness({
    models: [
      { id: 'acme/paint', endpoints: [imageEndpoint('sim-a', 'image')] },
      { id: 'acme/paint-one', endpoints: [imageEndpoint('sim-b', 'image', { image_envelope: { sizes: ['256x256'], formats: ['png'], max_images: 1 }, pricing: { image_output: '0.01' } })] },
      {
        id: 'acme/paint-failover',
        endpoints: [
          imageEndpoint('sim-a', 'image;error=500', { pricing: { image_output: '0.001' } }),
          imageEndpoint('sim-b', 'image'),
        ],
      },
      { id: 'acme/paint-url', endpoints: [imageEndpoint('sim-c', 'dall-e-3', { image_envelope: { sizes: ['256x256'], formats: ['png'], max_images: 1 } })] },
      {
        id: 'acme/paint-from',
        endpoints: [
          // the cheapest, and takes no reference pictures
          imageEndpoint('sim-c', 'image', { pricing: { image_output: '0.001' } }),
          imageEndpoint('sim-b', 'image', { pricing: { ...PRICES, image: '0.002' }, reference_inputs: { image: { formats: ['png', 'jpeg'], max_count: 2, max_bytes: 100_000 } } }),
        ],
      },
      { id: 'acme/paint-stream', endpoints: [imageEndpoint('sim-b', 'image', { supported_parameters: ['partial_images'] })] },
      {
        id: 'acme/paint-stream-failover',
        endpoints: [
          imageEndpoint('sim-a', 'image;error=500', { supported_parameters: ['partial_images'], pricing: { image_output: '0.001' } }),
          imageEndpoint('sim-b', 'image', { supported_parameters: ['partial_images'] }),
        ],
      },
      { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
    ],
  });
  client = new OpenAI({ baseURL: harness.baseUrl, apiKey: harness.key, maxRetries: 0 });
});

afterAll(async () => harness?.close());

describe('POST /images/generations with the official openai client', () => {
  it('renders the pictures asked, of the size asked, and bills each by rule 13 exactly: per picture, per megapixel read from the bytes, per output token', async () => {
    const before = await accountMoney(harness);
    const { data: images, response } = await client.images.generate({ model: 'acme/paint', prompt: 'a lighthouse at dusk', n: 2, size: '512x256' as '1024x1024', quality: 'low' }).withResponse();
    expect(images.data).toHaveLength(2);
    for (const image of images.data ?? []) {
      expect(imageSize(Buffer.from(image.b64_json ?? '', 'base64'))).toMatchObject({ width: 512, height: 256 });
    }
    const generationId = response.headers.get('x-generation-id') ?? '';
    expect(generationId).toMatch(/^gen-/);
    const usage = images.usage as unknown as { input_tokens: number; output_tokens: number; cost: number };
    const megapixels = '0.262144'; // two pictures of 512×256
    const expected = parseUsd(PRICES.prompt) * BigInt(usage.input_tokens) + parseUsd(PRICES.image_output) * 2n
      + parseUsd('0.0032243712') /* 0.0123 × 0.262144 */ + parseUsd(PRICES.image_output_token) * BigInt(usage.output_tokens);
    const record = await generationRecord(harness, generationId);
    expect(record).toMatchObject({ status: 'success', tokens_prompt: usage.input_tokens, tokens_completion: usage.output_tokens });
    expect(response.headers.get('x-provider-name')).toBe(record.provider_name);
    expect(parseUsd(record.cost_usd)).toBe(expected);
    expect(usage.cost).toBeCloseTo(Number(record.cost_usd), 12);
    expect(record.cost_lines).toEqual(expect.arrayContaining([
      expect.objectContaining({ key: 'image_output', quantity: '2' }),
      expect.objectContaining({ key: 'image_megapixel', quantity: megapixels }),
      expect.objectContaining({ key: 'image_output_token', quantity: String(usage.output_tokens) }),
    ]));
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBe(expected);
    expect(after.reserved).toBe(0n);
  });

  it('routes only to endpoints whose envelope admits the size, the count and the quality: past the first, to the next', async () => {
    const images = await client.images.generate({ model: 'acme/paint-failover', prompt: 'a fox', size: '256x256' });
    expect(images.data).toHaveLength(1);
    const refusals: Array<[Record<string, unknown>, string]> = [
      [{ model: 'acme/paint-one', prompt: 'x', size: '1024x1024' }, 'size 1024x1024'],
      [{ model: 'acme/paint-one', prompt: 'x', n: 2 }, 'at most 1 image'],
      [{ model: 'acme/paint', prompt: 'x', quality: 'ultra' }, 'quality ultra'],
      [{ model: 'acme/paint', prompt: 'x', output_format: 'webp' }, 'output_format webp'],
    ];
    for (const [body, named] of refusals) {
      const before = await accountMoney(harness);
      const reply = await send(harness, { path: '/images/generations', method: 'POST', body });
      expect(reply.status, JSON.stringify(body)).toBe(503);
      expect((reply.json as ErrorEnvelope).error.message).toContain(named);
      expect(await accountMoney(harness)).toEqual(before);
    }
  });

  it('a value out of range is the 400 naming its field, before any provider is called; a chat model serves no pictures', async () => {
    for (const [body, field] of [
      [{ model: 'acme/paint', prompt: 'x', n: 11 }, 'n'],
      [{ model: 'acme/paint', prompt: 'x', size: 'big' }, 'size'],
      [{ model: 'acme/paint', prompt: '' }, 'prompt'],
      [{ model: 'acme/paint', prompt: 'x', output_compression: 101 }, 'output_compression'],
      [{ model: 'acme/paint', prompt: 'x', stream: 'yes' }, 'stream'],
      [{ model: 'acme/paint', prompt: 'x', stream: true, partial_images: 4 }, 'partial_images'],
    ] as const) {
      const reply = await send(harness, { path: '/images/generations', method: 'POST', body });
      expect(reply.status, JSON.stringify(body)).toBe(400);
      expect((reply.json as ErrorEnvelope).error.message).toContain(field);
    }
    const chat = await send(harness, { path: '/images/generations', method: 'POST', body: { model: 'acme/chat', prompt: 'x' } });
    expect([502, 503]).toContain(chat.status);
    expect((chat.json as ErrorEnvelope).error.message).toContain('image');
  });
});

describe('the catalogue of image models', () => {
  it('/models?output_modalities=image lists the models that render pictures, and no chat model', async () => {
    const reply = await send(harness, { path: '/models?output_modalities=image' });
    expect(reply.status).toBe(200);
    const ids = (reply.json as { data: Array<{ id: string }> }).data.map((model) => model.id);
    expect(ids).toEqual(expect.arrayContaining(['acme/paint', 'acme/paint-one', 'acme/paint-failover']));
    expect(ids).not.toContain('acme/chat');
  });
});

describe('POST /images with the official @openrouter/sdk client', () => {
  it('answers the pictures\' bytes with their media type and the exact cost; an aspect ratio and a tier become the endpoint\'s declared size', async () => {
    const sdk = new OpenRouter({ serverURL: harness.baseUrl, apiKey: harness.key, retryConfig: { strategy: 'none' } });
    const before = await accountMoney(harness);
    const reply = await sdk.images.generate({ imageGenerationRequest: { model: 'acme/paint', prompt: 'a harbour', aspectRatio: '2:1', resolution: '512', n: 1 } });
    if (!('data' in reply)) throw new Error('a stream came back');
    expect(reply.data).toHaveLength(1);
    expect(reply.data[0]?.mediaType).toBe('image/png');
    expect(imageSize(Buffer.from(reply.data[0]?.b64Json ?? '', 'base64'))).toMatchObject({ width: 512, height: 256 });
    const charged = before.balance - (await accountMoney(harness)).balance;
    expect(parseUsd(String(reply.usage?.cost))).toBe(charged);
    const expected = parseUsd(PRICES.prompt) * BigInt(reply.usage?.promptTokens ?? 0) + parseUsd(PRICES.image_output)
      + parseUsd('0.0016121856') /* 0.0123 × 0.131072 */ + parseUsd(PRICES.image_output_token) * BigInt(reply.usage?.completionTokens ?? 0);
    expect(charged).toBe(expected);
  });

  it('an explicit size beside another resolution, or a reference picture no endpoint takes, is refused before any provider is called; a picture given only as a URL is a 502 charging nothing', async () => {
    const conflicting = await send(harness, { path: '/images', method: 'POST', body: { model: 'acme/paint', prompt: 'x', size: '256x256', resolution: '1K' } });
    expect(conflicting.status).toBe(400);
    expect((conflicting.json as ErrorEnvelope).error.message).toContain('resolution');
    const referenced = await send(harness, { path: '/images', method: 'POST', body: { model: 'acme/paint', prompt: 'x', input_references: [{ type: 'image_url', image_url: { url: 'https://example.com/a.png' } }] } });
    expect(referenced.status).toBe(503);
    expect((referenced.json as ErrorEnvelope).error.message).toContain('reference images');
    const badReference = await send(harness, { path: '/images', method: 'POST', body: { model: 'acme/paint', prompt: 'x', input_references: [{ type: 'image_url', image_url: { url: 'file:///etc/passwd' } }] } });
    expect(badReference.status).toBe(400);
    expect((badReference.json as ErrorEnvelope).error.message).toContain('input_references[0].image_url.url');
    // an endpoint that gives only URLs cannot be answered in bytes: a provider error, recorded, charged nothing
    const before = await accountMoney(harness);
    const urlOnly = await send(harness, { path: '/images', method: 'POST', body: { model: 'acme/paint-url', prompt: 'x' } });
    expect(urlOnly.status).toBe(502);
    expect((urlOnly.json as ErrorEnvelope).error.message).toContain('only as a URL');
    expect(await accountMoney(harness)).toEqual(before);
    const recorded = await generationRecord(harness, urlOnly.headers.get('x-generation-id') ?? '');
    expect(recorded).toMatchObject({ status: 'error', cost_usd: '0' });
    // while /images/generations hands the URL on
    const viaOpenAi = await client.images.generate({ model: 'acme/paint-url', prompt: 'x', response_format: 'url' });
    expect(viaOpenAi.data?.[0]?.url).toMatch(/^http:\/\//);
    const noRatio = await send(harness, { path: '/images', method: 'POST', body: { model: 'acme/paint', prompt: 'x', aspect_ratio: '21:9' } });
    expect(noRatio.status).toBe(503);
    expect((noRatio.json as ErrorEnvelope).error.message).toContain('aspect_ratio 21:9');
  });
});

describe('reference pictures (input_references)', () => {
  const png = (size: string) => `data:image/png;base64,${Buffer.from(generatedPng({ prompt: 'ref', width: Number(size.split('x')[0]), height: Number(size.split('x')[1]), transparent: false, references: [] }, 0)).toString('base64')}`;
  const reference = (url: string) => ({ type: 'image_url', image_url: { url } });

  it('go only to an endpoint declaring reference_inputs.image; each is charged at image, their input tokens at prompt', async () => {
    const sdk = new OpenRouter({ serverURL: harness.baseUrl, apiKey: harness.key, retryConfig: { strategy: 'none' } });
    const plain = await send(harness, { path: '/images', body: { model: 'acme/paint-from', prompt: 'a harbour', size: '256x256' } });
    expect(plain.headers.get('x-provider-name')).toBe('Sim C');
    const referenced = await send(harness, { path: '/images', body: { model: 'acme/paint-from', prompt: 'a harbour', size: '256x256', input_references: [reference(png('64x64')), reference('https://example.com/b.png')] } });
    expect(referenced.status).toBe(200);
    expect(referenced.headers.get('x-provider-name')).toBe('Sim B');
    const usage = (referenced.json as { usage: { prompt_tokens: number; cost: number } }).usage;
    const record = await generationRecord(harness, referenced.headers.get('x-generation-id') ?? '');
    expect(record.tokens_prompt).toBe(usage.prompt_tokens);
    // the prompt's tokens and 85 for each of the two pictures
    expect(usage.prompt_tokens - (plain.json as { usage: { prompt_tokens: number } }).usage.prompt_tokens).toBe(170);
    expect(record.cost_lines?.find((line) => line.key === 'prompt')).toEqual({ key: 'prompt', quantity: String(usage.prompt_tokens), amount_usd: expect.any(String) });
    // each picture in the prompt at the endpoint's `image` price
    expect(record.cost_lines?.find((line) => line.key === 'image')).toEqual({ key: 'image', quantity: '2', amount_usd: '0.004' });
    const typed = await sdk.images.generate({ imageGenerationRequest: { model: 'acme/paint-from', prompt: 'a harbour', size: '256x256', inputReferences: [{ type: 'image_url', imageUrl: { url: png('32x32') } }] } });
    if (!('data' in typed)) throw new Error('a stream came back');
    expect(typed.data).toHaveLength(1);
  });

  it('more pictures, another format or larger bytes than declared are no route (503) naming why, charging nothing', async () => {
    const before = await accountMoney(harness);
    const cases: Array<[unknown[], string]> = [
      [[reference(png('8x8')), reference(png('8x8')), reference(png('8x8'))], 'takes at most 2 reference images (3 sent)'],
      [[reference(`data:image/webp;base64,${Buffer.from('RIFF0000WEBPVP8 ').toString('base64')}`)], 'does not take webp reference images'],
      [[reference(`data:image/png;base64,${randomBytes(100_001).toString('base64')}`)], 'takes reference images of at most 100000 bytes'],
    ];
    for (const [references, reason] of cases) {
      const reply = await send(harness, { path: '/images', body: { model: 'acme/paint-from', prompt: 'x', size: '256x256', input_references: references } });
      expect({ status: reply.status, reason }).toEqual({ status: 503, reason });
      expect((reply.json as ErrorEnvelope).error.message).toContain(reason);
    }
    expect(await accountMoney(harness)).toEqual(before);
  });
});

describe('streaming partial pictures (stream: true)', () => {
  interface StreamEvent { type: string; b64_json?: string; partial_image_index?: number; usage?: { cost: number; output_tokens?: number } }

  it('an endpoint declaring partial_images streams them, then the picture with the call\'s usage and exact cost (openai client)', async () => {
    const before = await accountMoney(harness);
    const { data: stream, response } = await client.images.generate({ model: 'acme/paint-stream', prompt: 'a tide', size: '256x256', stream: true, partial_images: 2 }).withResponse();
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event as StreamEvent);
    expect(events.map((event) => event.type)).toEqual(['image_generation.partial_image', 'image_generation.partial_image', 'image_generation.completed']);
    expect(events.map((event) => event.partial_image_index)).toEqual([0, 1, undefined]);
    const completed = events[2];
    expect(imageSize(Buffer.from(completed?.b64_json ?? '', 'base64'))).toMatchObject({ width: 256, height: 256 });
    expect(response.headers.get('x-provider-name')).toBe('Sim B');
    const record = await generationRecord(harness, response.headers.get('x-generation-id') ?? '');
    expect(record.status).toBe('success');
    expect(parseUsd(String(completed?.usage?.cost))).toBe(parseUsd(record.cost_usd));
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBe(parseUsd(record.cost_usd));
    expect(after.reserved).toBe(0n);
  });

  it('an endpoint that does not stream answers whole: the stream is its pictures, billed the same', async () => {
    const stream = await client.images.generate({ model: 'acme/paint', prompt: 'a tide', size: '256x256', n: 2, stream: true, partial_images: 3 });
    const events: StreamEvent[] = [];
    for await (const event of stream) events.push(event as StreamEvent);
    expect(events.map((event) => event.type)).toEqual(['image_generation.completed', 'image_generation.completed']);
    expect(events[0]?.usage?.cost).toBeGreaterThan(0);
  });

  it('fails over past an endpoint failing before its first event', async () => {
    const { data: stream, response } = await client.images.generate({ model: 'acme/paint-stream-failover', prompt: 'a tide', size: '256x256', stream: true, partial_images: 1 }).withResponse();
    const types: string[] = [];
    for await (const event of stream) types.push(event.type);
    expect(types).toEqual(['image_generation.partial_image', 'image_generation.completed']);
    expect(response.headers.get('x-provider-name')).toBe('Sim B');
  });

  it('the hosted marketplace\'s shape with @openrouter/sdk: partial pictures, then the picture with its media type and cost', async () => {
    const sdk = new OpenRouter({ serverURL: harness.baseUrl, apiKey: harness.key, retryConfig: { strategy: 'none' } });
    const reply = await sdk.images.generate({ imageGenerationRequest: { model: 'acme/paint-stream', prompt: 'a tide', size: '256x256', stream: true } });
    if ('data' in reply) throw new Error('a whole reply came back');
    const events: Array<{ type: string; mediaType?: string; usage?: { cost?: number | null } }> = [];
    for await (const event of reply) events.push(event as (typeof events)[number]);
    expect(events.map((event) => event.type)).toEqual(['image_generation.completed']);
    expect(events[0]?.mediaType).toBe('image/png');
    expect(events[0]?.usage?.cost).toBeGreaterThan(0);
    const raw = await send(harness, { path: '/images', body: { model: 'acme/paint-stream', prompt: 'a tide', size: '256x256', stream: true, partial_images: 1 } });
    expect(raw.headers.get('content-type')).toContain('text/event-stream');
    expect(raw.text.trim().endsWith('data: [DONE]')).toBe(true);
    expect(raw.text).toContain('"type":"image_generation.partial_image"');
  });

  it('a picture given only as a URL cannot be streamed: an error event, charging nothing; partial_images without stream is refused', async () => {
    const before = await accountMoney(harness);
    const stream = await client.images.generate({ model: 'acme/paint-url', prompt: 'a tide', size: '256x256', stream: true });
    await expect((async () => {
      for await (const event of stream) void event;
    })()).rejects.toThrow(/only as a URL/);
    expect(await accountMoney(harness)).toEqual(before);
    const unstreamed = await send(harness, { path: '/images/generations', body: { model: 'acme/paint', prompt: 'x', partial_images: 2 } });
    expect(unstreamed.status).toBe(400);
    expect((unstreamed.json as ErrorEnvelope).error.message).toMatch(/^partial_images: /);
    const asUrl = await send(harness, { path: '/images/generations', body: { model: 'acme/paint', prompt: 'x', stream: true, response_format: 'url' } });
    expect(asUrl.status).toBe(400);
  });
});
