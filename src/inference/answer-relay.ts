import type { ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { computeCharacterCost } from '../billing/character-pricing.js';
import { chargeNothing, settleGeneration, type OutcomePricer } from '../billing/settlement.js';
import type { UpstreamFailure } from '../core/events.js';
import { AllAttemptsFailed, type Answer } from './executor.js';
import { failuresToError, failureToError } from '../core/failure-error.js';
import type { CoreRequest } from '../core/request.js';
import { SPEECH_CONTENT_TYPES } from '../core/speech.js';
import { speechAdapterFor } from '../upstream/speech-adapter.js';
import { transportFailure } from '../upstream/transport.js';
import type { Services } from '../http/services.js';
import { clientAbortedError, clientSignal } from '../http/inference/client-signal.js';
import { prepareInference } from './prepare.js';
import { recordServed, startOutcome } from './outcome.js';
import { headersSoFar } from '../http/inference/reply-headers.js';

/** Speech is charged per input character, counted before sending. */
const priceCharacters: OutcomePricer = (pricing, outcome, now) => computeCharacterCost(pricing, outcome.request.speech?.characters ?? 0, now);

type RelayEnd = { kind: 'done' } | { kind: 'left' } | { kind: 'failed'; failure: UpstreamFailure };

/**
 * Runs a speech request: routes and holds the characters' price, then relays the audio of the
 * first endpoint that sends bytes, as it arrives, under the content type of the asked codec and
 * with no `Content-Length`. Before the first byte a failure fails over and finally answers with an
 * HTTP error, charging nothing; after it the status is 200 and a failure cuts the connection
 * without the terminating chunk (the caller sees an incomplete body), charging nothing. A caller
 * who leaves mid-body is charged: the characters were synthesised for it.
 */
export async function runSpeech(
  services: Services,
  httpRequest: FastifyRequest,
  reply: FastifyReply,
  options: { request: CoreRequest; serviceVoice?: string },
): Promise<void> {
  const { request, serviceVoice } = options;
  const prepared = await prepareInference(services, httpRequest, request);
  const outcome = startOutcome(prepared, true);
  const signal = clientSignal(reply);
  let answer: Answer<AsyncGenerator<Uint8Array>>;
  try {
    answer = await services.executor.relay(request, prepared.plan, signal, speechAdapterFor);
  } catch (error) {
    if (!(error instanceof AllAttemptsFailed)) {
      await services.ledger.release(prepared.hold);
      throw error;
    }
    outcome.error = failuresToError(error.failures);
    await settleGeneration(services.ledger, prepared.hold, outcome, chargeNothing);
    throw outcome.error;
  }
  outcome.attempt = answer.attempt;
  outcome.firstContentAt = Date.now();
  const provider = answer.attempt.endpoint.provider.name;
  reply.hijack();
  reply.raw.writeHead(200, {
    ...headersSoFar(reply),
    'content-type': SPEECH_CONTENT_TYPES[request.speech?.format ?? 'mp3'],
    'cache-control': 'no-store',
    'x-provider-name': provider,
    ...(serviceVoice !== undefined && { 'x-service-voice': serviceVoice }),
  });
  const end = await relayBody(answer.events, reply.raw, signal);
  if (end.kind === 'failed') outcome.error = failureToError(end.failure, provider);
  if (end.kind === 'left') {
    outcome.cancelled = true;
    outcome.error = clientAbortedError();
  }
  outcome.finishReason = end.kind === 'failed' ? 'error' : 'stop';
  await settleGeneration(services.ledger, prepared.hold, outcome, end.kind === 'failed' ? chargeNothing : priceCharacters);
  recordServed(services.state, outcome);
  if (end.kind === 'failed') breakOff(reply.raw);
  else if (!reply.raw.destroyed) reply.raw.end();
}

/**
 * Ends a body that broke off so the caller can tell: the audio written so far is flushed, then the
 * connection closes without the terminating chunk, which HTTP clients report as an incomplete body.
 */
function breakOff(response: ServerResponse): void {
  const socket = response.socket;
  if (!socket || socket.destroyed) {
    response.destroy();
    return;
  }
  socket.end(() => socket.destroy());
}

/** Writes the audio chunk by chunk with back-pressure until it ends, breaks, or the caller leaves. */
async function relayBody(audio: AsyncGenerator<Uint8Array>, response: ServerResponse, signal: AbortSignal): Promise<RelayEnd> {
  try {
    for await (const chunk of audio) {
      if (response.destroyed) {
        await audio.return(undefined);
        return { kind: 'left' };
      }
      if (!response.write(chunk)) await drained(response);
    }
  } catch (error) {
    if (signal.aborted || response.destroyed) return { kind: 'left' };
    return { kind: 'failed', failure: { ...transportFailure(error), providerMessage: 'The audio stream broke off before it finished' } };
  }
  return response.destroyed ? { kind: 'left' } : { kind: 'done' };
}

function drained(response: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      response.off('drain', done);
      response.off('close', done);
      resolve();
    };
    response.once('drain', done);
    response.once('close', done);
  });
}
