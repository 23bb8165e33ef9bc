import type { AudioPlan } from './media-plan.js';
import { sliceBase64 } from './media-plan.js';
import { encryptedDetail, textDetail } from './reasoning-details.js';
import type { ReasoningPlan } from './reasoning-plan.js';
import type { ReplyPlan } from './reply-plan.js';
import type { ToolCallPlan } from './tool-call-plan.js';

export type Delta = Record<string, unknown>;

/** Where the tool call's id and name travel: the opening chunk, or the first argument fragment. */
export function toolHeaderInOpening(plan: ReplyPlan): boolean {
  return plan.toolCall !== undefined && plan.reasoning === undefined;
}

/** One delta per reasoning token (the last one signed), then the encrypted detail if any. */
function reasoningDeltas(reasoning: ReasoningPlan): Delta[] {
  const last = reasoning.tokens.length - 1;
  const deltas: Delta[] = reasoning.tokens.map((token, i) => ({
    reasoning: token,
    reasoning_details: [textDetail(token, i === last ? reasoning.signature : undefined)],
  }));
  if (reasoning.encrypted !== undefined) deltas.push({ reasoning_details: [encryptedDetail(reasoning.encrypted)] });
  return deltas;
}

function toolDeltas(call: ToolCallPlan, withHeader: boolean): Delta[] {
  return call.fragments.map((args, i) => ({
    tool_calls: [i === 0 && withHeader
      ? { index: 0, id: call.id, type: 'function', function: { name: call.name, arguments: args } }
      : { index: 0, function: { arguments: args } }],
  }));
}

/** One `delta.audio` fragment per transcript token; `expires_at` rides on the first. */
function audioDeltas(audio: AudioPlan, transcript: readonly string[]): Delta[] {
  const slices = sliceBase64(audio.data, transcript.length);
  return slices.map((data, i) => {
    const fragment: Record<string, unknown> = { id: audio.id };
    if (i === 0) fragment.expires_at = audio.expiresAt;
    if (data !== '') fragment.data = data;
    fragment.transcript = transcript[i] ?? '';
    return { audio: fragment };
  });
}

function answerDeltas(plan: ReplyPlan): Delta[] {
  if (plan.refusal) return plan.refusal.map((fragment) => ({ refusal: fragment }));
  if (plan.toolCall) return toolDeltas(plan.toolCall, !toolHeaderInOpening(plan));
  if (plan.audio) return audioDeltas(plan.audio, plan.content);
  return plan.content.map((token) => ({ content: token }));
}

/** The deltas between the opening chunk and the finish chunk, one chunk each. */
export function contentDeltas(plan: ReplyPlan): Delta[] {
  const deltas = plan.reasoning ? reasoningDeltas(plan.reasoning) : [];
  deltas.push(...answerDeltas(plan));
  if (plan.image !== undefined) deltas.push({ images: [{ type: 'image_url', image_url: { url: plan.image } }] });
  return deltas;
}
