import { wholeReasoningDetails } from './reasoning-details.js';
import type { ReplyMeta } from './reply-meta.js';
import { usageBody } from './reply-meta.js';
import type { ReplyPlan } from './reply-plan.js';

/** Text content, or null where the answer is a tool call, a refusal or audio (whose transcript holds it). */
function contentOf(plan: ReplyPlan): string | null {
  return plan.toolCalls.length > 0 || plan.refusal || plan.audio ? null : plan.content.join('');
}

function messageOf(plan: ReplyPlan): Record<string, unknown> {
  const message: Record<string, unknown> = {
    role: 'assistant',
    content: contentOf(plan),
    refusal: plan.refusal ? plan.refusal.join('') : null,
  };
  if (plan.reasoning) {
    message.reasoning = plan.reasoning.text;
    message.reasoning_details = wholeReasoningDetails(plan.reasoning);
  }
  if (plan.toolCalls.length > 0) {
    message.tool_calls = plan.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } }));
  }
  if (plan.image !== undefined) message.images = [{ type: 'image_url', image_url: { url: plan.image } }];
  if (plan.audio) {
    const { id, data, expiresAt } = plan.audio;
    message.audio = { id, data, expires_at: expiresAt, transcript: plan.content.join('') };
  }
  return message;
}

/** The non-streamed `chat.completion` body of a plan, shaped as OpenAI's. */
export function chatCompletionBody(plan: ReplyPlan, meta: ReplyMeta, withUsage: boolean): Record<string, unknown> {
  const body: Record<string, unknown> = {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, message: messageOf(plan), logprobs: plan.logprobs ? { content: plan.logprobs, refusal: null } : null, finish_reason: plan.finishReason }],
  };
  if (withUsage) body.usage = usageBody(plan);
  return body;
}
