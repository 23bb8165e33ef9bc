import { chargeNothing, priceCharacters } from '../billing/settlement.js';
import type { AbortLike } from '../core/abort.js';
import type { UpstreamFailure } from '../core/events.js';
import { failureToError } from '../core/failure-error.js';
import { SPEECH_CONTENT_TYPES } from '../core/speech.js';
import { speechAdapterFor } from '../upstream/speech-adapter.js';
import { transportFailure } from '../upstream/transport.js';
import { attemptSignal } from './call.js';
import type { Answer } from './executor.js';
import { CallState } from './call-state.js';
import type { PreparedInference } from './prepare.js';
import { recordAnswer } from './endpoint-samples.js';
import type { InferenceServices } from './services.js';

/** What a binary relay's writer does next. */
export type RelayPart =
  /** The first bytes came: answer 200 with these headers, without a Content-Length. */
  | { type: 'open'; headers: Record<string, string> }
  | { type: 'bytes'; chunk: Uint8Array }
  /** The body broke off (or its charge could not be recorded): close without finishing the body. */
  | { type: 'broken' };

/**
 * Answers a speech request as the parts to write: the audio of the first endpoint that sends
 * bytes, as it arrives, under the content type of the asked codec. Before the first byte a failure
 * fails over and finally throws the caller's error, charging nothing. After it a failure or a
 * restart breaks the body off, charging nothing; a caller who leaves mid-body is charged (the
 * characters were synthesised for it) and recorded as cancelled.
 */
export async function* answerRelay(
  services: InferenceServices,
  prepared: PreparedInference,
  options: { serviceVoice?: string } = {},
): AsyncGenerator<RelayPart> {
  const { request } = prepared;
  const state = new CallState(prepared, true);
  const upstream = attemptSignal(prepared.call);
  const { observer } = prepared.call;
  let opened = false;
  try {
    let answer: Answer<AsyncGenerator<Uint8Array>>;
    try {
      answer = await services.executor.relay(request, prepared.plan, upstream.signal, speechAdapterFor);
    } catch (error) {
      return await state.settleUnanswered(services, error);
    }
    state.answered(services.samples, answer);
    state.contentAt(Date.now());
    const provider = answer.attempt.endpoint.provider.name;
    observer.streamOpened();
    opened = true;
    yield {
      type: 'open',
      headers: {
        'content-type': SPEECH_CONTENT_TYPES[request.speech?.format ?? 'mp3'],
        'cache-control': 'no-store',
        'x-provider-name': provider,
        ...(options.serviceVoice !== undefined && { 'x-service-voice': options.serviceVoice }),
      },
    };
    const failure = yield* relayBody(answer.events, prepared.call.signal);
    const endedEarly = state.endedEarly();
    if (failure && !endedEarly) state.failed(failureToError(failure, provider));
    recordAnswer(services.samples, {
      endpointId: answer.attempt.endpoint.id,
      startedAt: answer.startedAt,
      endedAt: Date.now(),
      tokenStream: false,
      end: endedEarly ? 'cut' : failure ? 'failed' : 'complete',
    });
    state.endedWith({ finishReason: state.error && !state.cancelled ? 'error' : 'stop' });
    const charged = state.error === undefined || state.cancelled;
    const cost = await state.settle(services, charged ? priceCharacters : chargeNothing);
    if (state.cancelled) return;
    if (state.error || cost === undefined) yield { type: 'broken' };
  } finally {
    upstream.release();
    if (opened) observer.streamClosed(state.firstContentMs);
  }
}

/** Yields the audio chunk by chunk until it ends, breaks (the failure is returned), or the caller leaves. */
async function* relayBody(audio: AsyncGenerator<Uint8Array>, callerSignal: AbortLike): AsyncGenerator<RelayPart, UpstreamFailure | undefined> {
  try {
    for await (const chunk of audio) {
      if (callerSignal.aborted) {
        await audio.return(undefined);
        return undefined;
      }
      yield { type: 'bytes', chunk };
    }
  } catch (error) {
    return { ...transportFailure(error), providerMessage: 'The audio stream broke off before it finished' };
  }
  return undefined;
}
