import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { figuresOnTestClock, send, type Harness, type ModelSpec } from './harness.js';

/**
 * Render timing (spec 02 "Endpoint entry"): measured from the renders the gateway serves, null until
 * at least 2 picture sizes and 5 renders. The figures' clock is the test's, as in
 * measured-figures.test.ts.
 */
const MODELS: ModelSpec[] = [
  {
    id: 'acme/paint',
    endpoints: [{
      provider: 'sim-a',
      upstream_model: 'image',
      context_length: 8192,
      input_modalities: ['text'],
      output_modalities: ['image'],
      supported_parameters: [],
      pricing: { image_output: '0.01' },
      image_envelope: { sizes: ['256x256', '512x512', '1024x1024'], formats: ['png'], max_images: 2 },
    }],
  },
  { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
];

const { start, close, closeMinute, restartableDatabase } = figuresOnTestClock(MODELS, '2025-07-01T12:00:10Z');

async function render(harness: Harness, size: '256x256' | '512x512' | '1024x1024', n = 1): Promise<void> {
  const client = new OpenAI({ baseURL: harness.baseUrl, apiKey: harness.key, maxRetries: 0 });
  await client.images.generate({ model: 'acme/paint', prompt: 'a signal box', size, n });
}

type Entry = { provider_name: string; render_timing: { fixed_seconds: number; seconds_per_megapixel: number } | null; render_timing_samples: number | null; render_timing_sizes: number | null };

async function endpointEntry(harness: Harness, model: string): Promise<Entry> {
  const reply = await send(harness, { path: `/models/${model}/endpoints` });
  expect(reply.status).toBe(200);
  const [entry] = (reply.json as { data: { endpoints: Entry[] } }).data.endpoints;
  if (!entry) throw new Error(`${model} lists no endpoint`);
  return entry;
}

describe('render timing', () => {
  it('is null until 5 renders of 2 sizes, then fitted from them; a chat endpoint does not compute it', async () => {
    const harness = await start();
    for (let index = 0; index < 4; index += 1) await render(harness, '256x256');
    await closeMinute(harness);
    expect(await endpointEntry(harness, 'acme/paint')).toMatchObject({ render_timing: null, render_timing_samples: 4, render_timing_sizes: 1 });
    await render(harness, '256x256');
    await closeMinute(harness);
    // five renders, one size: still null
    expect(await endpointEntry(harness, 'acme/paint')).toMatchObject({ render_timing: null, render_timing_samples: 5, render_timing_sizes: 1 });
    await render(harness, '1024x1024', 2);
    await closeMinute(harness);
    const measured = await endpointEntry(harness, 'acme/paint');
    expect(measured).toMatchObject({ render_timing_samples: 6, render_timing_sizes: 2 });
    expect(measured.render_timing).toEqual({ fixed_seconds: expect.any(Number), seconds_per_megapixel: expect.any(Number) });
    expect(measured.render_timing?.fixed_seconds).toBeGreaterThanOrEqual(0);
    expect(measured.render_timing?.seconds_per_megapixel).toBeGreaterThanOrEqual(0);
    expect(await endpointEntry(harness, 'acme/chat')).toMatchObject({ render_timing: null, render_timing_samples: null, render_timing_sizes: null });
  });

  it('survives a restart: the next gateway on the same database reports the same timing', async () => {
    const databaseUrl = await restartableDatabase();
    const before = await start(databaseUrl);
    for (const size of ['256x256', '512x512', '1024x1024', '256x256', '512x512'] as const) await render(before, size);
    await closeMinute(before);
    const measured = await endpointEntry(before, 'acme/paint');
    expect(measured).toMatchObject({ render_timing_samples: 5, render_timing_sizes: 3 });
    expect(measured.render_timing).not.toBeNull();
    await close(before);
    const after = await start(databaseUrl);
    await after.gateway.services.state.figures.sync();
    expect(await endpointEntry(after, 'acme/paint')).toEqual(measured);
  });
});
