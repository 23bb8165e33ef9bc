import type { UpstreamApi } from '../catalogue/types.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { SpeechAdapter } from './types.js';
import { openAiSpeechAdapter } from './openai/speech.js';

const SPEECH_ADAPTERS: Partial<Record<UpstreamApi, SpeechAdapter>> = {
  openai: openAiSpeechAdapter,
};

/** The speech adapter for an endpoint's wire format, or undefined when this build has none. */
export function speechAdapterFor(attempt: PlannedAttempt): SpeechAdapter | undefined {
  return SPEECH_ADAPTERS[attempt.endpoint.provider.api];
}
