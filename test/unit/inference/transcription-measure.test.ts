import { describe, expect, test } from 'vitest';
import { parseUsd } from '../../../src/billing/money.js';
import type { GenerationOutcome } from '../../../src/billing/settlement.js';
import type { GatewayError } from '../../../src/core/errors.js';
import { UploadedAudio } from '../../../src/dialects/transcriptions/uploaded-audio.js';
import { DIALECTS } from '../../../src/inference/dialects.js';
import { transcriptionOperation } from '../../../src/inference/operations/transcriptions.js';
import { encodeSilence } from '../../../src/sim/speech-audio.js';
import { buildWav } from '../../../src/sim/wav-audio.js';
import { pricingOf } from '../../fixtures/catalogue/documents.js';

/** A body admitted as the route admits it: schema, then decode. */
function decoded(body: Record<string, unknown>) {
  const admission = DIALECTS.transcriptions.admit({ model: 'acme/whisper', ...body }, {});
  if (!admission.ok) throw new Error(`refused: ${admission.error.message}`);
  return admission.value;
}

const uploaded = (bytes: Buffer) => decoded({ file: new UploadedAudio(bytes) });
const inline = (bytes: Buffer, format: string) => decoded({ input_audio: { data: bytes.toString('base64'), format } });

async function measureRefusal(operation: ReturnType<typeof decoded>): Promise<GatewayError> {
  const measure = transcriptionOperation.measure;
  if (!measure) throw new Error('transcription measures its recording');
  try {
    await measure(operation);
  } catch (error) {
    return error as GatewayError;
  }
  throw new Error('expected the recording to be refused');
}

async function measured(operation: ReturnType<typeof decoded>) {
  await transcriptionOperation.measure?.(operation);
  return operation;
}

describe('a transcription\'s seconds, read from the recording before routing', () => {
  test('a 2.5 s WAV is 2.500000 s on both the ask and the routed operation', async () => {
    const operation = await measured(uploaded(buildWav(2.5)));
    expect(operation.ask.seconds).toBe('2.500000');
    expect(operation.request.operation).toMatchObject({ kind: 'transcription', seconds: '2.500000' });
  });

  test('the seconds are read from input_audio the same way', async () => {
    const operation = await measured(inline(buildWav(1.25), 'wav'));
    expect(operation.ask.seconds).toBe('1.250000');
    expect(operation.request.operation).toMatchObject({ seconds: '1.250000' });
  });

  test('an MP3 of 3 s is read as about 3 s, to the microsecond', async () => {
    const operation = await measured(uploaded(encodeSilence('mp3', 3)));
    const seconds = Number(operation.ask.seconds);
    expect(seconds).toBeGreaterThan(2.95);
    expect(seconds).toBeLessThan(3.05);
    expect(operation.ask.seconds).toMatch(/^\d+\.\d{6}$/);
    expect(operation.request.operation).toMatchObject({ seconds: operation.ask.seconds });
  });

  test.each([
    ['a WAV header with no samples', buildWav(2.5).subarray(0, 44)],
    ['a WAV header cut short', buildWav(2.5).subarray(0, 30)],
    ['a WAV header over noise', Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVE'), Buffer.alloc(200, 0x55)])],
    ['an MP3 frame header and nothing more', encodeSilence('mp3', 3).subarray(0, 4)],
    ['an ID3 tag and no audio', Buffer.concat([Buffer.from('ID3'), Buffer.from([4, 0, 0, 0, 0, 0, 0])])],
    ['a FLAC marker and no stream', Buffer.concat([Buffer.from('fLaC'), Buffer.alloc(32)])],
  ])('%s is a 400 naming file', async (_, bytes) => {
    const error = await measureRefusal(uploaded(Buffer.from(bytes)));
    expect({ status: error.status, field: error.metadata.field }).toEqual({ status: 400, field: 'file' });
  });

  test('unreadable input_audio is a 400 naming input_audio.data', async () => {
    const error = await measureRefusal(inline(buildWav(2).subarray(0, 44), 'wav'));
    expect({ status: error.status, field: error.metadata.field }).toEqual({ status: 400, field: 'input_audio.data' });
    expect(error.message).toMatch(/^input_audio\.data: /);
  });

  test('a refused recording leaves no seconds behind', async () => {
    const operation = uploaded(buildWav(2).subarray(0, 44));
    await measureRefusal(operation);
    expect(operation.ask.seconds).toBeUndefined();
    expect(operation.request.operation).not.toHaveProperty('seconds');
  });
});

describe('what a transcription records and is charged', () => {
  const NOW = new Date('2025-06-04T12:00:00Z');

  test('the measured seconds are charged at audio_second, whatever seconds the endpoint reported', async () => {
    const { ask } = await measured(uploaded(buildWav(2.25)));
    const priced = transcriptionOperation.price(pricingOf({ audio_second: '0.0001' }), { text: 'x', usage: { seconds: 3 } }, {} as GenerationOutcome, NOW, ask);
    expect(priced.cost).toBe(parseUsd('0.000225'));
  });

  test('the record keeps the seconds and the reported tokens', async () => {
    const { ask } = await measured(uploaded(buildWav(2)));
    expect(transcriptionOperation.recorded({ text: 'x', usage: { inputTokens: 20, outputTokens: 4 }, upstreamId: 'tr_1' }, ask)).toEqual({
      usage: { audioSeconds: '2.000000', promptTokens: 20, completionTokens: 4 },
      upstreamId: 'tr_1',
      finishReason: 'stop',
    });
  });
});
