import type { EndpointEntry, ReasoningEffort } from '../../catalogue/types.js';
import { chatAnswer } from '../chat-reply.js';
import { answersChat, judgeFailure, type CapabilityCheck, type Judgement, type Probe, type ProbeReply } from '../probe.js';

const PROMPT = 'What is 17 times 23? Think it through, then answer with the number.';

/**
 * Room for a thinking budget: wires that take one (the Messages wire) need it at least 1,024
 * tokens and below the ceiling, whatever share of the ceiling the level takes.
 */
const REASONING_CEILING = 2048;

function declaresReasoning(endpoint: EndpointEntry): boolean {
  return answersChat(endpoint) && (endpoint.supportedParameters.has('reasoning') || endpoint.supportedParameters.has('reasoning_effort'));
}

function effortProbe(effort: ReasoningEffort, judge: Probe['judge']): Omit<Probe, 'capability'> {
  return { body: { messages: [{ role: 'user', content: PROMPT }], reasoning: { effort }, max_tokens: REASONING_CEILING }, judge };
}

/** Each declared effort level (rule 4): asked at that level, the endpoint must reason, shown or accounted. */
export const reasoningEffortCheck: CapabilityCheck = {
  name: 'reasoning effort levels',
  probes(endpoint) {
    if (!declaresReasoning(endpoint)) return [];
    const levels = (endpoint.reasoning?.supportedEfforts ?? []).filter((effort) => effort !== 'none');
    return levels.map((effort) => ({ capability: `reasoning_effort:${effort}`, ...effortProbe(effort, judgeReasoned) }));
  },
};

/**
 * Effort `none` (rule 5), where a request naming it can be routed (a declared `none`, or no declared
 * levels): no reasoning may appear in the reply channel.
 */
export const reasoningNoneCheck: CapabilityCheck = {
  name: 'reasoning effort none',
  probes(endpoint) {
    const levels = endpoint.reasoning?.supportedEfforts;
    if (!declaresReasoning(endpoint) || (levels && !levels.includes('none'))) return [];
    return [{ capability: 'reasoning_none', ...effortProbe('none', judgeUnreasoned) }];
  },
};

export function judgeReasoned(reply: ProbeReply): Judgement {
  if (reply.kind === 'failed') return judgeFailure(reply);
  if (reply.kind !== 'answer') return { inconclusive: 'expected a whole reply' };
  const answer = chatAnswer(reply.body);
  if (answer.reasoningTokens > 0) return { passed: true, detail: `reasoned: ${answer.reasoningTokens} reasoning tokens` };
  if (answer.reasoningShown) return { passed: true, detail: 'reasoned: reasoning in the reply' };
  return { passed: false, detail: 'no reasoning in the reply and no reasoning tokens in its usage' };
}

export function judgeUnreasoned(reply: ProbeReply): Judgement {
  if (reply.kind === 'failed') return judgeFailure(reply);
  if (reply.kind !== 'answer') return { inconclusive: 'expected a whole reply' };
  const answer = chatAnswer(reply.body);
  if (!answer.reasoningShown) return { passed: true, detail: 'no reasoning in the reply' };
  return { passed: false, detail: `reasoning appeared in the reply (${answer.reasoningTokens} reasoning tokens)` };
}
