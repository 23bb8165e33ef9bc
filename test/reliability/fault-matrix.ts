import type { EndpointSpec, ModelSpec } from '../e2e/harness.js';

/**
 * Every simulator fault kind (src/sim/behaviour.ts), on every conversation dialect, over both
 * upstream wires, streamed and not; and the faults of the calls that are not conversations
 * (speech, typed decisions, embeddings, rerank).
 */

export const PROMPT_PRICE = '0.000001';
export const COMPLETION_PRICE = '0.000002';
export const REQUEST_PRICE = '0.0003';
export const CHARACTER_PRICE = '0.00001';

export type Wire = 'openai' | 'anthropic';
export type Dialect = 'chat' | 'completions' | 'messages' | 'responses';

/** What the simulator is told to do, by its behaviour keys. */
export interface Fault {
  /** Behaviour keys after the upstream base name. */
  keys: string;
  /** The fault's family, which decides what the spec expects. */
  kind: 'error' | 'fail_after' | 'disconnect_after' | 'malformed' | 'slow_first_token' | 'no_usage';
  /** For `error`: the provider's status. For the mid-stream kinds: content chunks before the fault. */
  at: number;
}

/** Answers are 6 tokens long, so a fault after 3 chunks falls mid-answer. */
const ANSWER_TOKENS = 6;

export const PROVIDER_STATUSES = [400, 401, 408, 413, 429, 500, 503, 504];

export const CONVERSATION_FAULTS: Fault[] = [
  ...PROVIDER_STATUSES.map((status): Fault => ({ keys: `error=${status}`, kind: 'error', at: status })),
  { keys: 'fail_after=0', kind: 'fail_after', at: 0 },
  { keys: 'fail_after=3', kind: 'fail_after', at: 3 },
  { keys: 'disconnect_after=0', kind: 'disconnect_after', at: 0 },
  { keys: 'disconnect_after=3', kind: 'disconnect_after', at: 3 },
  { keys: 'malformed=0', kind: 'malformed', at: 0 },
  { keys: 'malformed=3', kind: 'malformed', at: 3 },
  { keys: 'ttft=150', kind: 'slow_first_token', at: 150 },
  { keys: 'no_usage', kind: 'no_usage', at: 0 },
];

/** The gateway's status for a provider that answered `status` before any byte of answer (core/failure-error.ts, spec 02 Errors). */
export function refusedStatusFor(status: number): number {
  if (status === 413 || status === 429 || status === 400) return status;
  if (status === 408 || status === 504) return 504;
  if (status >= 400 && status < 500 && status !== 401) return 400;
  return 502;
}

export function modelId(wire: Wire | 'text', fault: Fault): string {
  return `fault/${wire}-${fault.keys.replace(/[=_]/g, '-')}`;
}

function pricing(fault: Fault): Record<string, string> {
  return fault.kind === 'no_usage'
    ? { prompt: PROMPT_PRICE, completion: COMPLETION_PRICE, request: REQUEST_PRICE }
    : { prompt: PROMPT_PRICE, completion: COMPLETION_PRICE };
}

function endpoint(provider: string, upstream: string, fault: Fault, extra: Partial<EndpointSpec> = {}): EndpointSpec {
  return { provider, upstream_model: `${upstream};tokens=${ANSWER_TOKENS};${fault.keys}`, pricing: pricing(fault), ...extra };
}

export const CONVERSATION_MODELS: ModelSpec[] = CONVERSATION_FAULTS.flatMap((fault) => [
  { id: modelId('openai', fault), endpoints: [endpoint('sim-a', 'chat', fault)] },
  { id: modelId('anthropic', fault), endpoints: [endpoint('sim-anthropic', 'claude', fault)] },
  { id: modelId('text', fault), endpoints: [endpoint('sim-b', 'base', fault, { text_completions: true })] },
]);

export interface ConversationCase {
  dialect: Dialect;
  wire: Wire;
  fault: Fault;
  stream: boolean;
}

export const CONVERSATION_CASES: ConversationCase[] = (['chat', 'completions', 'messages', 'responses'] as const).flatMap((dialect) =>
  (dialect === 'completions' ? ['openai' as const] : ['openai' as const, 'anthropic' as const]).flatMap((wire) =>
    CONVERSATION_FAULTS.flatMap((fault) => [false, true].map((stream) => ({ dialect, wire, fault, stream })))));

const PROMPT = 'Tell me a short story about a lighthouse.';

/** The request of a case: its dialect's body naming the case's model. */
export function conversationRequest(subject: ConversationCase): { path: string; body: Record<string, unknown> } {
  const model = modelId(subject.dialect === 'completions' ? 'text' : subject.wire, subject.fault);
  const { stream } = subject;
  switch (subject.dialect) {
    case 'chat':
      return { path: '/chat/completions', body: { model, stream, messages: [{ role: 'user', content: PROMPT }] } };
    case 'completions':
      return { path: '/completions', body: { model, stream, prompt: PROMPT } };
    case 'messages':
      return { path: '/messages', body: { model, stream, max_tokens: 64, messages: [{ role: 'user', content: PROMPT }] } };
    case 'responses':
      return { path: '/responses', body: { model, stream, input: PROMPT } };
  }
}
