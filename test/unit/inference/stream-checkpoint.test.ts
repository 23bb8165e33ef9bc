import { describe, expect, it } from 'vitest';
import type { CheckpointCadence, DeliveredSoFar, GenerationCheckpoints, Hold } from '../../../src/billing/types.js';
import { AnswerMeter } from '../../../src/core/answer-meter.js';
import { StreamCheckpoint } from '../../../src/inference/stream-checkpoint.js';

function checkpoints(cadence: CheckpointCadence): GenerationCheckpoints & { recorded: DeliveredSoFar[] } {
  const recorded: DeliveredSoFar[] = [];
  const record = async (_id: string, delivered: DeliveredSoFar) => void recorded.push(delivered);
  return { cadence, recorded, record, committed: (_hold, endpointId) => record('', { endpointId, completionTokens: 0 }) };
}

/** Feeds `count` more words to the meter; all but the last word seen are countable (one token each). */
function words(meter: AnswerMeter, count: number): void {
  for (let i = 0; i < count; i += 1) meter.observe({ type: 'text.delta', index: 0, text: 'word ' });
}

describe('stream checkpoint cadence', () => {
  it('a checkpoint waits until both the interval and the tokens have passed since the last one', () => {
    const sink = checkpoints({ tokens: 10, intervalMs: 1_000 });
    const meter = new AnswerMeter();
    const checkpoint = new StreamCheckpoint(sink, { hold: { generationId: 'g1' } as Hold, endpointId: 'ep', meter }, 0);
    words(meter, 50);
    checkpoint.delivered(999);
    expect(sink.recorded).toEqual([]);
    checkpoint.delivered(1_000);
    expect(sink.recorded).toEqual([{ endpointId: 'ep', completionTokens: 49 }]);
    words(meter, 5);
    checkpoint.delivered(5_000);
    expect(sink.recorded).toHaveLength(1);
    words(meter, 5);
    checkpoint.delivered(5_001);
    expect(sink.recorded.map((delivered) => delivered.completionTokens)).toEqual([49, 59]);
    words(meter, 100);
    checkpoint.delivered(5_500);
    expect(sink.recorded).toHaveLength(2);
  });

  it('the prompt the endpoint reported rides along once a usage event came', () => {
    const sink = checkpoints({ tokens: 1, intervalMs: 0 });
    const meter = new AnswerMeter();
    const checkpoint = new StreamCheckpoint(sink, { hold: { generationId: 'g1' } as Hold, endpointId: 'ep', meter }, 0);
    words(meter, 3);
    meter.observe({ type: 'usage', usage: { promptTokens: 42 } });
    checkpoint.delivered(1);
    expect(sink.recorded).toEqual([{ endpointId: 'ep', completionTokens: 2, promptTokens: 42 }]);
  });
});
