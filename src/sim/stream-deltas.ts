import type { AudioPlan } from './media-plan.js';
import { sliceBase64 } from './media-plan.js';
import { encryptedDetail, textDetail } from './reasoning-details.js';
import type { ReasoningPlan } from './reasoning-plan.js';
import type { ReplyPlan } from './reply-plan.js';
import type { ToolCallPlan } from './tool-call-plan.js';

export type Delta = Record<string, unknown>;

/** Where the first tool call's id and name travel: the opening chunk, or its first argument fragment. */
export function toolHeaderInOpening(plan: ReplyPlan): boolean {
  return plan.toolCalls.length > 0 && plan.reasoning === undefined;
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

function toolHeader(call: ToolCallPlan, index: number, args: string): Delta {
  return { index, id: call.id, type: 'function', function: { name: call.name, arguments: args } };
}

/**
 * One chunk per argument fragment, call after call, each call's header on its first fragment
 * (the first call's header may have gone in the opening chunk instead).
 */
function sequentialToolDeltas(calls: readonly ToolCallPlan[], firstHeaderSent: boolean): Delta[] {
  return calls.flatMap((call, index) => call.fragments.map((args, i) => ({
    tool_calls: [i === 0 && !(index === 0 && firstHeaderSent) ? toolHeader(call, index, args) : { index, function: { arguments: args } }],
  })));
}

/** `interleave`: every call's header in a chunk of its own first, then the calls' fragments in turn. */
function interleavedToolDeltas(calls: readonly ToolCallPlan[], firstHeaderSent: boolean): Delta[] {
  const deltas: Delta[] = calls.flatMap((call, index) => (index === 0 && firstHeaderSent ? [] : [{ tool_calls: [toolHeader(call, index, '')] }]));
  const longest = Math.max(...calls.map((call) => call.fragments.length));
  for (let i = 0; i < longest; i += 1) {
    calls.forEach((call, index) => {
      const args = call.fragments[i];
      if (args !== undefined) deltas.push({ tool_calls: [{ index, function: { arguments: args } }] });
    });
  }
  return deltas;
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

function answerDeltas(plan: ReplyPlan, interleave: boolean): Delta[] {
  if (plan.refusal) return plan.refusal.map((fragment) => ({ refusal: fragment }));
  if (plan.toolCalls.length > 0) {
    return (interleave ? interleavedToolDeltas : sequentialToolDeltas)(plan.toolCalls, toolHeaderInOpening(plan));
  }
  if (plan.audio) return audioDeltas(plan.audio, plan.content);
  return plan.content.map((token) => ({ content: token }));
}

/**
 * The deltas between the opening chunk and the finish chunk, one chunk each; `interleave` sends
 * every tool call's header before their fragments, which alternate between calls.
 */
export function contentDeltas(plan: ReplyPlan, interleave = false): Delta[] {
  const deltas = plan.reasoning ? reasoningDeltas(plan.reasoning) : [];
  deltas.push(...answerDeltas(plan, interleave));
  if (plan.image !== undefined) deltas.push({ images: [{ type: 'image_url', image_url: { url: plan.image } }] });
  return deltas;
}
