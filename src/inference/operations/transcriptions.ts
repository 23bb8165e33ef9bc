import { computeTranscriptionCost } from '../../billing/operation-pricing.js';
import { AUDIO_CONTAINER_TYPES } from '../../core/audio-container.js';
import { invalidRequest } from '../../core/errors.js';
import { secondsOf } from '../../core/media-measure.js';
import type { TranscriptionAsk, TranscriptionResult } from '../../core/transcription.js';
import { encodeTranscriptionReply } from '../../dialects/transcriptions/encode.js';
import { transcriptionsAdapters } from '../../upstream/operation-registry.js';
import type { OperationBinding } from '../operation-binding.js';

/**
 * Transcription: one call, its recording's seconds read from the container before routing (they
 * size the hold and the charge), billed by rule 13 at the serving endpoint's prices: the seconds at
 * `audio_second`, tokens as reported at `prompt` and `completion`. The record keeps the seconds and
 * the counts.
 */
export const transcriptionOperation: OperationBinding<TranscriptionAsk, TranscriptionResult> = {
  measure: async ({ ask, request }) => {
    const seconds = await secondsOf(ask.audio, AUDIO_CONTAINER_TYPES[ask.container]);
    if (seconds === undefined) throw invalidRequest(ask.field, `the ${ask.container} recording could not be read (empty, cut short or corrupt): its length is unknown`);
    ask.seconds = seconds.toFixed(6);
    if (request.operation?.kind === 'transcription') request.operation.seconds = ask.seconds;
  },
  execute: (executor, ask, plan, signal) => executor.unary(ask, plan, signal, transcriptionsAdapters),
  recorded: (result, ask) => ({
    usage: {
      ...(ask.seconds !== undefined && { audioSeconds: ask.seconds }),
      ...(result.usage.inputTokens !== undefined && { promptTokens: result.usage.inputTokens }),
      ...(result.usage.outputTokens !== undefined && { completionTokens: result.usage.outputTokens }),
    },
    ...(result.upstreamId !== undefined && { upstreamId: result.upstreamId }),
    finishReason: 'stop',
  }),
  price: (pricing, result, _outcome, now, ask) => computeTranscriptionCost(pricing, {
    seconds: ask.seconds ?? '0',
    ...(result.usage.inputTokens !== undefined && { promptTokens: result.usage.inputTokens }),
    ...(result.usage.outputTokens !== undefined && { outputTokens: result.usage.outputTokens }),
  }, now),
  encode: encodeTranscriptionReply,
};
