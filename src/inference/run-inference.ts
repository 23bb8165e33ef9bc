import type { CatalogueSource } from '../catalogue/source.js';
import type { CapabilityVerdictView } from '../core/capability-checks.js';
import type { CoreRequest } from '../core/request.js';
import { resolveModels } from '../core/planner/model-resolution.js';
import { resolveVoice } from '../core/speech-voice.js';
import type { Admission } from '../dialects/shared/admission.js';
import type { HeaderBag } from '../dialects/shared/request-headers.js';
import { answerOperation } from './answer-operation.js';
import { answerOperationStream } from './answer-operation-stream.js';
import { answerRelay, type RelayPart } from './answer-relay.js';
import { answerStream } from './answer-stream.js';
import { answerWhole } from './answer-whole.js';
import type { InferenceCall } from './call.js';
import type { Dialect } from './dialects.js';
import { prepareInference } from './prepare.js';
import { recordRefusal } from './refusal-record.js';
import { readStoredFiles } from './stored-files.js';
import type { WholeReply } from './reply.js';
import type { InferenceServices } from './services.js';
import type { StreamOutput } from './stream-output.js';

/** What a call answers: a whole reply, an event stream (written into an output as it is produced), or the parts of a binary relay. */
export type InferenceAnswer =
  | { type: 'whole'; reply: WholeReply }
  | { type: 'stream'; writeTo(output: StreamOutput): Promise<void> }
  | { type: 'relay'; parts: AsyncGenerator<RelayPart> };

/**
 * The one way into the pipeline, for the HTTP routes, the prober and batches alike: the body is
 * admitted by its dialect, planned and held, then answered. Every outcome is recorded under the
 * call's generation id: a refusal before the hold here (costing nothing; the refusal is thrown), a
 * held call by its settlement.
 */
export async function runInference(
  services: InferenceServices,
  call: InferenceCall,
  dialect: Dialect,
  body: unknown,
  headers: HeaderBag,
  options: RunOptions = {},
): Promise<InferenceAnswer> {
  let answer: () => Promise<InferenceAnswer>;
  try {
    answer = await admitAndHold(services, { call, dialect, body, headers, verdicts: options.verdicts });
  } catch (error) {
    await recordRefusal(services, { key: call.key, generationId: call.generationId, body, headers, error });
    throw error;
  }
  return answer();
}

export interface RunOptions {
  /** The capability checks routing obeys; default the live ones (a probe plans with its own). */
  verdicts?: CapabilityVerdictView;
}

interface Asked {
  call: InferenceCall;
  dialect: Dialect;
  body: unknown;
  headers: HeaderBag;
  verdicts: CapabilityVerdictView | undefined;
}

/** Admits and holds the call; what it returns answers it. */
async function admitAndHold(services: InferenceServices, asked: Asked): Promise<() => Promise<InferenceAnswer>> {
  const { call, dialect, body, headers } = asked;
  const planning = asked.verdicts ? { verdicts: asked.verdicts } : {};
  switch (dialect.kind) {
    case 'conversation': {
      const request = admitted(dialect.admit(body, headers));
      await readStoredFiles(services.storedFiles, call.key.accountId, request);
      const prepared = await prepareInference(services, call, request, planning);
      if (request.stream) return async () => ({ type: 'stream', writeTo: (output) => answerStream(services, prepared, dialect.encoders, output) });
      return async () => ({ type: 'whole', reply: await answerWhole(services, prepared, dialect.encoders) });
    }
    case 'speech': {
      const request = admitted(dialect.admit(body, headers));
      const serviceVoice = chooseVoice(services.catalogue, request);
      const prepared = await prepareInference(services, call, request, planning);
      return async () => ({ type: 'relay', parts: answerRelay(services, prepared, serviceVoice !== undefined ? { serviceVoice } : {}) });
    }
    case 'operation': {
      const decoded = admitted(dialect.admit(body, headers));
      const binding = dialect.operation;
      await binding.measure?.(decoded);
      const { request, facts, ask } = decoded;
      const prepared = await prepareInference(services, call, request, { ...planning, facts, ...binding.prepareOptions?.(ask) });
      const stream = binding.stream;
      if (stream?.streamed(ask)) return async () => ({ type: 'stream', writeTo: (output) => answerOperationStream(services, prepared, binding, stream, ask, output) });
      return async () => ({ type: 'whole', reply: await answerOperation(services, prepared, binding, ask) });
    }
    default: {
      const unreachable: never = dialect;
      throw new Error(`unknown dialect ${String(unreachable)}`);
    }
  }
}

function admitted<Admitted>(admission: Admission<Admitted>): Admitted {
  if (!admission.ok) throw admission.error;
  return admission.value;
}

/**
 * Settles the voice a speech request is sent with, as its first model declares them (spec 01: an
 * undeclared voice is refused, or chosen by the service where one voice is offered); returns the
 * voice the service chose, if it chose one.
 */
function chooseVoice(catalogue: CatalogueSource, request: CoreRequest): string | undefined {
  const ask = request.speech;
  const [resolved] = resolveModels(catalogue.current(), request.models);
  if (!ask || !resolved) return undefined;
  const voice = resolveVoice(resolved.model, ask.voice, ask.sample !== undefined);
  if (voice.voice !== undefined) ask.voice = voice.voice;
  else delete ask.voice;
  return voice.serviceVoice;
}
