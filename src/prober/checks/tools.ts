import { chatAnswer, quoted } from '../chat-reply.js';
import { answersChat, judgeFailure, type CapabilityCheck, type Judgement, type ProbeReply } from '../probe.js';
import { callProblem, PROBE_TOOL_NAME, toolAsk } from './probe-tool.js';

/**
 * Tools (rule 1): an endpoint declaring `tools`, asked to call the one declared tool, must answer
 * with a parseable call of it, not with prose.
 */
export const toolsCheck: CapabilityCheck = {
  name: 'tools',
  probes(endpoint) {
    if (!answersChat(endpoint) || !endpoint.supportedParameters.has('tools')) return [];
    return [{ capability: 'tools', body: { ...toolAsk(endpoint), max_tokens: 256 }, judge: judgeToolCall }];
  },
};

export function judgeToolCall(reply: ProbeReply): Judgement {
  if (reply.kind === 'failed') return judgeFailure(reply);
  if (reply.kind !== 'answer') return { inconclusive: 'expected a whole reply' };
  const answer = chatAnswer(reply.body);
  const call = answer.toolCalls[0];
  if (!call) return { passed: false, detail: `answered prose instead of calling ${PROBE_TOOL_NAME}: ${quoted(answer.content ?? '')}` };
  const problem = callProblem(call);
  return problem ? { passed: false, detail: problem } : { passed: true, detail: `called ${PROBE_TOOL_NAME} with JSON arguments` };
}
