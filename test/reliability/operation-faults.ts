import { parseUsd } from '../../src/billing/money.js';
import type { EndpointSpec, Harness, ModelSpec } from '../e2e/harness.js';
import { envelopeProblem } from './error-shape.js';
import { CHARACTER_PRICE, COMPLETION_PRICE, PROMPT_PRICE, refusedStatusFor, REQUEST_PRICE } from './fault-matrix.js';
import { runOnOwnAccount, tokenCost } from './fault-judge.js';
import { costOf, type GenerationView } from './ledger-check.js';

/**
 * Faults of the calls that are not conversations: speech (relayed audio), typed decisions,
 * embeddings and rerank. Each names the charge the spec gives it: nothing for a failure (a speech
 * body that breaks after its first byte included), the reported usage or the request price otherwise.
 */

type Operation = 'speech' | 'systemone' | 'embeddings' | 'rerank';

export interface OperationFault {
  operation: Operation;
  keys: string;
  status: number;
  /** The record's status. */
  recorded: 'success' | 'error';
  /** The charge: an exact amount, or `tokens` for the record's counts at the token prices. */
  charge: bigint | 'tokens';
}

const SPEECH_INPUT = 'A lighthouse keeper counts the ships.';
const SPEECH_COST = parseUsd(CHARACTER_PRICE) * BigInt([...SPEECH_INPUT].length);

const upstreamOf: Record<Operation, (keys: string) => Omit<EndpointSpec, 'pricing'>> = {
  speech: (keys) => ({
    provider: 'sim-a', upstream_model: `tts;${keys}`, input_modalities: ['text'], output_modalities: ['speech'], supported_parameters: [],
    speech_envelope: { voices: ['alloy'], codecs: ['wav'] },
  }),
  systemone: (keys) => ({ provider: 'sim-c', upstream_model: `judge;labels;${keys}`, supported_parameters: ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'] }),
  embeddings: (keys) => ({ provider: 'sim-a', upstream_model: `embed;${keys}`, context_length: 8192, input_modalities: ['text'], output_modalities: ['embeddings'], supported_parameters: [] }),
  rerank: (keys) => ({ provider: 'sim-cohere', upstream_model: `rerank;${keys}`, context_length: 8192, output_modalities: ['rerank'], supported_parameters: [] }),
};

const pricingOf: Record<Operation, Record<string, string>> = {
  speech: { character: CHARACTER_PRICE },
  systemone: { prompt: PROMPT_PRICE, completion: COMPLETION_PRICE },
  embeddings: { prompt: PROMPT_PRICE },
  rerank: { request: REQUEST_PRICE },
};

const refused = (operation: Operation, keys: string, status: number): OperationFault => ({ operation, keys, status, recorded: 'error', charge: 0n });

export const OPERATION_FAULTS: OperationFault[] = [
  ...(['speech', 'systemone', 'embeddings', 'rerank'] as const).flatMap((operation) =>
    [500, 503, 429, 400, 401].map((status) => refused(operation, `error=${status}`, refusedStatusFor(status)))),
  refused('speech', 'fail_after=0', 502),
  // After the first audio byte the status stays 200 and the body stops early; a failed synthesis bills nothing.
  { operation: 'speech', keys: 'fail_after=1', status: 200, recorded: 'error', charge: 0n },
  { operation: 'speech', keys: 'ttft=150', status: 200, recorded: 'success', charge: SPEECH_COST },
  refused('systemone', 'fail_after=1', 502),
  refused('systemone', 'disconnect_after=0', 502),
  refused('systemone', 'malformed', 502),
  { operation: 'systemone', keys: 'ttft=150', status: 200, recorded: 'success', charge: 'tokens' },
  { operation: 'systemone', keys: 'no_usage', status: 200, recorded: 'success', charge: 0n },
  { operation: 'embeddings', keys: 'no_usage', status: 200, recorded: 'success', charge: 0n },
  { operation: 'rerank', keys: 'no_usage', status: 200, recorded: 'success', charge: parseUsd(REQUEST_PRICE) },
];

function modelOf(fault: OperationFault): string {
  return `fault/${fault.operation}-${fault.keys.replace(/[=_]/g, '-')}`;
}

export const OPERATION_MODELS: ModelSpec[] = OPERATION_FAULTS.map((fault) => ({
  id: modelOf(fault),
  endpoints: [{ ...upstreamOf[fault.operation](fault.keys), pricing: pricingOf[fault.operation] } as EndpointSpec],
}));

function request(fault: OperationFault): { path: string; body: Record<string, unknown> } {
  const model = modelOf(fault);
  switch (fault.operation) {
    case 'speech':
      return { path: '/audio/speech', body: { model, input: SPEECH_INPUT, voice: 'alloy', response_format: 'wav' } };
    case 'systemone':
      return {
        path: '/systemone',
        body: { model, state: 'The ship is late.', questions: { urgency: { type: 'choice', instructions: 'How urgent?', criteria: { low: 'can wait', high: 'act now' } } } },
      };
    case 'embeddings':
      return { path: '/embeddings', body: { model, input: ['red apple', 'green pear'] } };
    case 'rerank':
      return { path: '/rerank', body: { model, query: 'red apple', documents: ['a red apple pie', 'green pear'] } };
  }
}

function chargeProblem(fault: OperationFault, record: GenerationView): string | undefined {
  const expected = fault.charge === 'tokens' ? tokenCost(record) : fault.charge;
  if (costOf(record) !== expected) return `record cost ${record.cost_usd}, expected ${expected} units`;
  if (fault.charge === 'tokens' && expected <= 0n) return 'reported tokens were not billed';
  return undefined;
}

export async function judgeOperationFault(harness: Harness, fault: OperationFault): Promise<string[]> {
  const { path, body } = request(fault);
  const reading = await runOnOwnAccount(harness, path, body);
  const { reply, record } = reading;
  const problems: string[] = [];
  if (reply.status !== fault.status) problems.push(`status ${reply.status}, expected ${fault.status}: ${reply.text.slice(0, 200)}`);
  const breaks = fault.operation === 'speech' && fault.status === 200 && fault.recorded === 'error';
  if (reading.broken !== breaks) problems.push(breaks ? 'the audio body ended cleanly after the synthesis failed' : 'the body broke off');
  if (reply.status >= 300) {
    const shape = envelopeProblem(path, reply, JSON.stringify(body));
    if (shape) problems.push(`envelope: ${shape}`);
  }
  if (!record) return [...problems, `GET /generation answered ${reading.recordStatus}`];
  if (record.status !== fault.recorded) problems.push(`record ${record.status} ${JSON.stringify(record.error)}`);
  if (fault.recorded === 'error' && reply.status >= 300 && record.error?.code !== reply.status) problems.push(`record error ${JSON.stringify(record.error)}`);
  const charge = chargeProblem(fault, record);
  if (charge) problems.push(charge);
  if (reading.charged !== costOf(record)) problems.push(`the account was charged ${reading.charged}, the record says ${record.cost_usd}`);
  if (reading.reserved !== 0n) problems.push(`${reading.reserved} still held`);
  return problems;
}

export function operationTitle(fault: OperationFault): string {
  return `${fault.operation} ${fault.keys}`;
}
