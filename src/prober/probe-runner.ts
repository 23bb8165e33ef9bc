import { servingRevision } from '../catalogue/serving-revision.js';
import type { EndpointEntry, ModelEntry } from '../catalogue/types.js';
import type { CapabilityVerdictView, CheckObservation } from '../core/capability-checks.js';
import { GatewayError } from '../core/errors.js';
import { newGenerationId } from '../core/generation-id.js';
import { isPlainObject } from '../core/plain-object.js';
import { endpointTags } from '../core/planner/provider-rules.js';
import type { InferenceCall } from '../inference/call.js';
import { DIALECTS } from '../inference/dialects.js';
import { runInference } from '../inference/run-inference.js';
import type { InferenceServices } from '../inference/services.js';
import { RecordedStream } from '../inference/stream-output.js';
import { PROBE_KEY } from './probe-key.js';
import type { Probe, ProbeReply } from './probe.js';
import { ProbeObserver, type AttemptCounter } from './probe-observer.js';

/** What running probes needs: the request pipeline, with the operator's ledger in it. */
export interface ProbeServices extends InferenceServices {
  /** Where probes' upstream attempts are counted, if anywhere. */
  attempts?: AttemptCounter;
}

/** The endpoint a probe is sent to, and its model. */
export interface ProbeTarget {
  model: ModelEntry;
  endpoint: EndpointEntry;
}

/**
 * Sends one probe to exactly one endpoint through the request pipeline (routing, hold, execution,
 * encoding, settlement, generation record, measured figures), as a chat request pinned to the
 * endpoint with `provider.only` and no fallbacks, run as the operator (see billing/operator-ledger.ts).
 * The probe plans with its own view of the checks, in which the endpoint's promises are presumed
 * kept: a check must be able to test again a promise an earlier check refuted.
 */
export async function runProbe(services: ProbeServices, target: ProbeTarget, probe: Probe, signal: AbortSignal): Promise<ProbeReply> {
  const { endpoint } = target;
  // `slug/quantization` names one endpoint even where the provider serves the model more than once
  const tag = endpointTags(endpoint)[1] ?? endpoint.provider.slug;
  const body = { ...probe.body, model: target.model.id, provider: { only: [tag], allow_fallbacks: false } };
  const observer = new ProbeObserver(services.attempts);
  const call: InferenceCall = { key: PROBE_KEY, generationId: newGenerationId(), signal, restart: signal, observer };
  try {
    const answer = await runInference(services, call, DIALECTS.chat, body, {}, { verdicts: presumedKept(endpoint, services.state.verdicts.probeVersion) });
    if (answer.type === 'whole') return { kind: 'answer', body: answer.reply.body };
    if (answer.type !== 'stream') throw new Error(`a chat probe answered ${answer.type}`);
    const stream = new RecordedStream();
    await answer.writeTo(stream);
    let text = '';
    for (const part of stream.parts) {
      if (part.type === 'text') text += part.text;
      if (part.type === 'refused') return failed(part.reply.status, messageOf(part.reply.body), observer);
    }
    return { kind: 'stream', text };
  } catch (error) {
    if (error instanceof GatewayError) return failed(error.status, error.message, observer);
    throw error;
  }
}

function failed(status: number, message: string, observer: ProbeObserver): ProbeReply {
  return { kind: 'failed', status, message, failures: observer.failures };
}

function messageOf(envelope: unknown): string {
  const error = isPlainObject(envelope) ? envelope.error : undefined;
  return isPlainObject(error) && typeof error.message === 'string' ? error.message : 'refused';
}

/** Checks as a probe plans with them: every promise of its one endpoint kept, as of now. */
function presumedKept(endpoint: EndpointEntry, probeVersion: number): CapabilityVerdictView {
  const kept: CheckObservation = { passed: true, at: Date.now(), revision: servingRevision(endpoint), probeVersion, detail: 'presumed for a check' };
  return { probeVersion, latest: () => kept };
}
