import { imageSize } from 'image-size';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ImagesAsk } from '../../../../src/core/images.js';
import type { PlannedAttempt } from '../../../../src/core/plan.js';
import { startSimulator, type RunningSimulator } from '../../../../src/sim/server.js';
import { openAiImagesAdapter } from '../../../../src/upstream/openai/images.js';
import { catalogueOf, endpoint, model } from '../../../fixtures/planner/catalogue-yaml.js';

const catalogue = catalogueOf([
  model('acme/paint', [endpoint('alpha', { upstream_model: 'image', output_modalities: ['image'], supported_parameters: [] })]),
]);

function attempt(): PlannedAttempt {
  const found = catalogue.endpoints.get('alpha/acme/paint');
  const owner = catalogue.models.get('acme/paint');
  if (!found || !owner) throw new Error('no endpoint');
  return { model: owner, modelId: owner.id, endpoint: found, promptTokens: 0, heldCeiling: 0 };
}

const ASK: ImagesAsk = { prompt: 'a lighthouse at dusk', n: 2, size: '256x128', quality: 'low', references: [], responseFormat: 'b64_json' };

let sim: RunningSimulator;

beforeAll(async () => {
  sim = await startSimulator({ port: 0 });
});

afterAll(async () => {
  await sim?.close();
});

/** The adapter's request sent to the simulator as the transport would, and its reply decoded. */
async function generate(ask: ImagesAsk, upstreamModel = 'image') {
  const built = openAiImagesAdapter.buildRequest(ask, attempt());
  const response = await fetch(`${sim.url}/v1${built.path}`, {
    method: 'POST',
    headers: { ...built.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ ...built.body, model: upstreamModel }),
  });
  const text = await response.text();
  return response.ok ? openAiImagesAdapter.decodeReply(JSON.parse(text), ask) : { ok: false as const, failure: openAiImagesAdapter.decodeError(response.status, text, {}) };
}

describe('OpenAI images adapter', () => {
  test('sends only what was asked, in OpenAI\'s names (references in the hosted marketplace\'s)', () => {
    const built = openAiImagesAdapter.buildRequest({ ...ASK, background: 'transparent', outputFormat: 'png', outputCompression: 100, seed: 7, user: 'u1', responseFormat: 'url' }, attempt());
    expect(built.path).toBe('/images/generations');
    expect(built.body).toEqual({
      model: 'image', prompt: 'a lighthouse at dusk', n: 2, size: '256x128', quality: 'low', background: 'transparent',
      output_format: 'png', output_compression: 100, seed: 7, response_format: 'url', user: 'u1',
    });
    expect(openAiImagesAdapter.buildRequest({ prompt: 'x', n: 1, references: [], responseFormat: 'b64_json' }, attempt()).body).toEqual({ model: 'image', prompt: 'x', n: 1 });
    // references as the hosted marketplace's input_references: image parts, bytes as data URLs
    const referenced = openAiImagesAdapter.buildRequest({
      prompt: 'x', n: 1, responseFormat: 'b64_json',
      references: [{ kind: 'data', mediaType: 'image/png', base64: 'iVBORw0KGgo=' }, { kind: 'url', url: 'https://example.com/a.png' }],
    }, attempt());
    expect(referenced.body.input_references).toEqual([
      { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
      { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
    ]);
  });

  test('reads the pictures the simulator rendered, of the size asked, with the usage it reported', async () => {
    const decoded = await generate(ASK);
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.failure));
    expect(decoded.result.images).toHaveLength(2);
    for (const image of decoded.result.images) {
      if (image.kind !== 'data') throw new Error('a picture came back without its bytes');
      expect(image.mediaType).toBe('image/png');
      expect(imageSize(Buffer.from(image.base64, 'base64'))).toMatchObject({ width: 256, height: 128 });
    }
    expect(decoded.result.usage).toMatchObject({ inputTokens: expect.any(Number), inputTextTokens: expect.any(Number), outputTokens: expect.any(Number) });
    expect(decoded.result.usage.outputTokens).toBeGreaterThan(0);
  });

  test('a DALL·E style reply is read as URLs with the revised prompt', async () => {
    const decoded = await generate({ ...ASK, n: 1, responseFormat: 'url' }, 'dall-e-3');
    if (!decoded.ok) throw new Error(JSON.stringify(decoded.failure));
    expect(decoded.result.images).toEqual([{ kind: 'url', url: expect.stringMatching(/^http:\/\//), revisedPrompt: expect.any(String) }]);
    expect(decoded.result.usage).toEqual({});
  });

  test.each([
    ['no pictures', { created: 1, data: [] }],
    ['more pictures than asked', { created: 1, data: [{ b64_json: 'AA==' }, { b64_json: 'AA==' }, { b64_json: 'AA==' }] }],
    ['a picture with neither bytes nor URL', { created: 1, data: [{ revised_prompt: 'x' }] }],
    ['a format nobody can name', { created: 1, output_format: 'tiff', data: [{ b64_json: 'AA==' }] }],
    ['not an object', ['x']],
  ])('%s fails the attempt as a protocol failure, so routing moves on', (_, json) => {
    const decoded = openAiImagesAdapter.decodeReply(json, ASK);
    expect(decoded.ok).toBe(false);
    if (!decoded.ok) expect(decoded.failure).toMatchObject({ kind: 'protocol', retryable: true });
  });

  test('an endpoint without the route does not serve image generation; a refused parameter is the provider\'s 400', async () => {
    expect(openAiImagesAdapter.decodeError(404, 'not found', {})).toMatchObject({ kind: 'protocol', retryable: true });
    const refused = await generate({ ...ASK, size: '4096x4096' });
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(refused.failure).toMatchObject({ status: 400 });
  });
});

describe('the OpenAI image event stream', () => {
  const streaming = openAiImagesAdapter.streaming;
  if (!streaming) throw new Error('the adapter does not stream');
  const frame = (type: string, data: Record<string, unknown>) => JSON.stringify({ type, output_format: 'png', ...data });

  test('is asked only of an endpoint declaring partial_images, with stream and the partial count', () => {
    expect(streaming.streams({ ...ASK, stream: true }, attempt())).toBe(false);
    const declaring = catalogueOf([model('acme/paint', [endpoint('alpha', { upstream_model: 'image', output_modalities: ['image'], supported_parameters: ['partial_images'] })])]);
    const found = declaring.endpoints.get('alpha/acme/paint');
    const owner = declaring.models.get('acme/paint');
    if (!found || !owner) throw new Error('no endpoint');
    const streamed = { model: owner, modelId: owner.id, endpoint: found, promptTokens: 0, heldCeiling: 0 };
    expect(streaming.streams({ ...ASK, stream: true }, streamed)).toBe(true);
    expect(streaming.streams(ASK, streamed)).toBe(false);
    expect(streaming.buildStreamRequest({ ...ASK, stream: true, partialImages: 2 }, streamed).body).toMatchObject({ stream: true, partial_images: 2, n: 2 });
  });

  test('partial pictures are pieces; completed pictures and the last usage are the result at the end', () => {
    const decoder = streaming.createStreamDecoder(ASK);
    expect(decoder.frame(frame('image_generation.partial_image', { b64_json: 'AAAA', partial_image_index: 0 }))).toEqual([{ type: 'piece', piece: { base64: 'AAAA', mediaType: 'image/png', index: 0 } }]);
    expect(decoder.frame(frame('image_generation.completed', { b64_json: 'BBBB', usage: { input_tokens: 5, output_tokens: 272 } }))).toEqual([]);
    expect(decoder.frame(frame('image_generation.completed', { b64_json: 'CCCC', usage: { input_tokens: 5, output_tokens: 544 } }))).toEqual([]);
    expect(decoder.end()).toEqual([{
      type: 'result',
      result: { images: [{ kind: 'data', base64: 'BBBB', mediaType: 'image/png' }, { kind: 'data', base64: 'CCCC', mediaType: 'image/png' }], usage: { inputTokens: 5, outputTokens: 544 } },
    }]);
  });

  test('an error event, a malformed event, more pictures than asked, or no picture at all fail the attempt', () => {
    expect(streaming.createStreamDecoder(ASK).frame(JSON.stringify({ type: 'error', error: { message: 'overloaded' } }))).toMatchObject([{ type: 'error', failure: { providerMessage: 'overloaded' } }]);
    expect(streaming.createStreamDecoder(ASK).frame(frame('image_generation.partial_image', { b64_json: 'AAAA' }))).toMatchObject([{ type: 'error', failure: { kind: 'protocol' } }]);
    const greedy = streaming.createStreamDecoder({ ...ASK, n: 1 });
    greedy.frame(frame('image_generation.completed', { b64_json: 'BBBB' }));
    expect(greedy.frame(frame('image_generation.completed', { b64_json: 'CCCC' }))).toMatchObject([{ type: 'error' }]);
    expect(streaming.createStreamDecoder(ASK).end()).toMatchObject([{ type: 'error', failure: { kind: 'incomplete' } }]);
  });
});
