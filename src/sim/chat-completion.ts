import type { ReplyMeta } from './reply-meta.js';
import { usageBody } from './reply-meta.js';
import type { ReplyPlan } from './reply-plan.js';

/** The non-streamed `chat.completion` body of a plan, shaped as OpenAI's. */
export function chatCompletionBody(plan: ReplyPlan, meta: ReplyMeta, withUsage: boolean): Record<string, unknown> {
  const call = plan.toolCall;
  const message = call
    ? {
      role: 'assistant',
      content: null,
      refusal: null,
      tool_calls: [{ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }],
    }
    : { role: 'assistant', content: plan.content.join(''), refusal: null };
  const body: Record<string, unknown> = {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message, logprobs: null, finish_reason: plan.finishReason }],
  };
  if (withUsage) body.usage = usageBody(plan);
  return body;
}
