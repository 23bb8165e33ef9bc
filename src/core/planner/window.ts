import type { EndpointEntry } from '../../catalogue/types.js';
import type { CoreMessage } from '../request.js';
import type { PlannerInput } from './context.js';

/**
 * Messages middle-out compression never drops: system and developer messages, the first turn of
 * the conversation and the last message.
 */
export function keptIndexes(messages: readonly CoreMessage[]): Set<number> {
  const kept = new Set<number>();
  messages.forEach((message, index) => {
    if (message.role === 'system' || message.role === 'developer') kept.add(index);
  });
  const firstTurn = messages.findIndex((message) => message.role !== 'system' && message.role !== 'developer');
  if (firstTurn >= 0) kept.add(firstTurn);
  if (messages.length > 0) kept.add(messages.length - 1);
  return kept;
}

function keptTokens(input: PlannerInput): number {
  const kept = keptIndexes(input.request.messages);
  return input.facts.messageTokens.reduce((sum, tokens, index) => (kept.has(index) ? sum + tokens : sum), input.facts.toolTokens);
}

/** The reasons `windowRejection` gives: the conversation does not fit an endpoint's context window. */
const WINDOW_REASON = /^(prompt of about \d+ tokens does not fit the context window|context window of \d+ cannot hold)/;

/** Whether a rejection reason says the conversation does not fit the endpoint's context window. */
export function isWindowReason(reason: string): boolean {
  return WINDOW_REASON.test(reason);
}

/**
 * Without compression the prompt alone must fit the window. With middle-out (rule 8) the part that
 * cannot be dropped must fit beside the full requested ceiling.
 */
export function windowRejection(endpoint: EndpointEntry, input: PlannerInput): string | null {
  const window = endpoint.contextLength;
  if (!input.request.middleOut) {
    const tokens = input.facts.windowTokens ?? input.facts.promptTokens;
    return tokens >= window ? `prompt of about ${tokens} tokens does not fit the context window of ${window}` : null;
  }
  const needed = keptTokens(input) + (input.request.maxTokens ?? 1);
  return needed > window
    ? `context window of ${window} cannot hold the kept conversation (about ${needed - (input.request.maxTokens ?? 1)} tokens) beside the ceiling`
    : null;
}

export interface Compressed {
  messages: CoreMessage[];
  promptTokens: number;
}

/**
 * Middle-out: drops the messages nearest the middle of the conversation, never a kept one,
 * until the prompt fits `budget` tokens. Returns undefined when nothing needed dropping.
 */
export function compressMiddle(input: PlannerInput, budget: number): Compressed | undefined {
  const { messages } = input.request;
  const tokens = input.facts.messageTokens;
  let promptTokens = input.facts.promptTokens;
  if (promptTokens <= budget) return undefined;
  const kept = keptIndexes(messages);
  const dropped = new Set<number>();
  for (const index of middleFirst(messages.length)) {
    if (promptTokens <= budget) break;
    if (kept.has(index)) continue;
    dropped.add(index);
    promptTokens -= tokens[index] ?? 0;
  }
  return { messages: messages.filter((_, index) => !dropped.has(index)), promptTokens };
}

/** Indexes ordered from the centre outwards. */
function middleFirst(length: number): number[] {
  const centre = Math.floor(length / 2);
  const order: number[] = [];
  for (let offset = 0; order.length < length; offset += 1) {
    if (centre - offset >= 0 && offset > 0) order.push(centre - offset);
    if (centre + offset < length) order.push(centre + offset);
    if (centre - offset < 0 && centre + offset >= length) break;
  }
  return order;
}
