import { OpenRouter } from '@openrouter/sdk';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUsd } from '../../src/billing/money.js';
import { encodeSilence } from '../../src/sim/speech-audio.js';
import { buildWav } from '../../src/sim/wav-audio.js';
import { accountMoney, send, startHarness, type ErrorEnvelope, type Harness } from './harness.js';

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
          transcriptionEndpoint('sim-b', 'transcribe', { context_length: 16000, max_completion_tokens: 2000, supported_parameters: [], supported_languages: ['en'], pricing: { prompt: '0.0000001', completion: '0.0000001' } }),
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

interface CostLine {
  key: string;
  quantity: string;
  amount_usd: string | null;
}

async function recordOf(id: string): Promise<{ cost_usd: string; cost_lines: CostLine[]; provider_name: string | null; tokens_prompt: number | null; tokens_completion: number | null; status: string }> {
  const reply = await send(harness, { path: `/generation?id=${id}` });
  expect(reply.status).toBe(200);
  return (reply.json as { data: Awaited<ReturnType<typeof recordOf>> }).data;
}

describe('POST /audio/transcriptions with the official openai client', () => {
  it('json: the transcript, billed per second read from the container', async () => {
    const before = await accountMoney(harness);
    const { data, response } = await client.audio.transcriptions.create({ file: await toFile(buildWav(4), 'talk.wav'), model: 'acme/whisper' }).withResponse();
    expect(data.text.split(' ')).toHaveLength(10);
    expect(data.usage).toEqual({ type: 'duration', seconds: 4, cost: 0.0004 });
    expect(response.headers.get('x-provider-name')).toBe('Sim A');
    const id = response.headers.get('x-generation-id') ?? '';
    const record = await recordOf(id);
    expect(record.cost_usd).toBe('0.0004');
    expect(record.cost_lines).toEqual([{ key: 'audio_second', quantity: '4.000000', amount_usd: '0.0004' }]);
    const after = await accountMoney(harness);
    expect(before.balance - after.balance).toBe(parseUsd('0.0004'));
    expect(after.reserved).toBe(0n);
  });
});
