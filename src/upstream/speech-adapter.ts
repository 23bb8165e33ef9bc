import type { UpstreamApi } from '../catalogue/types.js';
import type { UpstreamFailure } from '../core/events.js';
import type { PlannedAttempt } from '../core/plan.js';
import type { CoreRequest } from '../core/request.js';
import type { UpstreamRequest } from './types.js';
import { openAiSpeechAdapter } from './openai/speech.js';

/** One wire format's speech call: pure translation; the reply body is the audio itself. */
export interface SpeechAdapter {
  buildRequest(request: CoreRequest, attempt: PlannedAttempt): UpstreamRequest;
  decodeError(status: number, bodyText: string, headers: Record<string, string>): UpstreamFailure;
}

const SPEECH_ADAPTERS: Partial<Record<UpstreamApi, SpeechAdapter>> = {
  openai: openAiSpeechAdapter,
};

/** The speech adapter for an endpoint's wire format, or undefined when this build has none. */
export function speechAdapterFor(attempt: PlannedAttempt): SpeechAdapter | undefined {
  return SPEECH_ADAPTERS[attempt.endpoint.provider.api];
}
