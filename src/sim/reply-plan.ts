import type { SimBehaviour } from './behaviour.js';
import type { AudioPlan } from './media-plan.js';
import { imageUrlOf, planAudio } from './media-plan.js';
import { lastUserText, messageList } from './message-text.js';
import { countPromptTokens } from './prompt-tokens.js';
import type { ReasoningPlan } from './reasoning-plan.js';
import { planReasoning } from './reasoning-plan.js';
import type { ToolCallPlan } from './tool-call-plan.js';
import { forcesToolCall, planToolCalls } from './tool-call-plan.js';
import { replyToken } from './reply-token.js';
import { cutAtStop, requestedStops } from './stop-sequences.js';
import { planLogprobs, type LogprobEntry } from './logprobs-plan.js';
import { withLabelAnswer } from './label-answer.js';
import { requestedSchema, schemaInstance } from './schema-instance.js';

export type { ToolCallPlan } from './tool-call-plan.js';

export type FinishReason = 'stop' | 'length' | 'tool_calls';

/** Everything a reply says, decided once and rendered as a JSON body or a stream. */
export interface ReplyPlan {
  /** Answer tokens, one per streamed chunk (the transcript when there is audio); else empty. */
  content: string[];
  reasoning: ReasoningPlan | undefined;
  /** Refusal fragments, one per streamed chunk; undefined = not a refusal. */
  refusal: string[] | undefined;
  /** The calls of a tool answer, in order; empty = not a tool answer. */
  toolCalls: ToolCallPlan[];
  /** URL of the generated picture; undefined = none. */
  image: string | undefined;
  audio: AudioPlan | undefined;
  /** The finish_reason as sent: the computed one, or the configured raw one. */
  finishReason: string;
  /** The requested stop sequence the answer ended at (`stop`); undefined = none matched. */
  stopSequence?: string;
  promptTokens: number;
  /** Answer and reasoning tokens together. */
  completionTokens: number;
  /** Reported reasoning tokens; undefined = none reported. */
  reasoningTokens: number | undefined;
  cachedTokens: number | undefined;
  cacheWriteTokens: number | undefined;
  /** `logprobs.content` of the answer tokens, when the request asked for log-probabilities. */
  logprobs: LogprobEntry[] | undefined;
}

const REFUSAL = ['I', " can't", ' help', ' with', ' that.'] as const;

function completionCap(body: Record<string, unknown>): number | undefined {
  for (const value of [body.max_completion_tokens, body.max_tokens]) {
    if (typeof value === 'number' && Number.isInteger(value) && value >= 0) return value;
  }
  return undefined;
}

export interface PlanInput {
  body: Record<string, unknown>;
  behaviour: SimBehaviour;
  /** The request's number since the simulator started; ids derive from it. */
  sequence: number;
  /** Unix seconds the reply was created. */
  created: number;
}

type Answer = Pick<ReplyPlan, 'content' | 'refusal' | 'toolCalls' | 'image' | 'audio'> & {
  finishReason: FinishReason;
  tokens: number;
  stopSequence?: string;
};

function textAnswer({ body, behaviour, sequence, created }: PlanInput): Answer {
  const image = behaviour.image ? imageUrlOf(behaviour.image) : undefined;
  const audioSeconds = behaviour.audioSeconds;
  const audio = audioSeconds === undefined ? undefined : planAudio({ seconds: audioSeconds, sequence, created });
  const media = { refusal: undefined, toolCalls: [], image, audio };
  if (behaviour.imageOnly && image) return { ...media, content: [], finishReason: 'stop', tokens: 0 };
  if (behaviour.echo) return { ...media, content: [JSON.stringify(body)], finishReason: 'stop', tokens: 1 };
  const schema = behaviour.followSchema ? requestedSchema(body) : undefined;
  const scripted = behaviour.answer ?? mostProbable(behaviour.top) ?? (schema === undefined ? undefined : JSON.stringify(schemaInstance(schema)));
  if (scripted !== undefined) return { ...media, content: [scripted], finishReason: 'stop', tokens: 1 };
  const cap = completionCap(body);
  const produced = cap !== undefined && cap < behaviour.tokens ? cap : behaviour.tokens;
  const generated = Array.from({ length: produced }, (_, i) => replyToken(i));
  const { content, stop } = cutAtStop(generated, requestedStops(body));
  if (stop !== undefined) return { ...media, content, finishReason: 'stop', tokens: content.length, stopSequence: stop };
  const finishReason: FinishReason = produced < behaviour.tokens ? 'length' : 'stop';
  return { ...media, content, finishReason, tokens: produced };
}

function mostProbable(top: SimBehaviour['top']): string | undefined {
  return top?.reduce((best, item) => (item.probability > best.probability ? item : best)).token;
}

function planAnswer(input: PlanInput, messages: readonly unknown[]): Answer {
  const { body, behaviour, sequence } = input;
  const none = { content: [], image: undefined, audio: undefined };
  if (behaviour.refusal && !behaviour.echo) {
    return { ...none, refusal: [...REFUSAL], toolCalls: [], finishReason: 'stop', tokens: REFUSAL.length };
  }
  if ((behaviour.tools || forcesToolCall(body)) && !behaviour.prose && !behaviour.echo) {
    const toolCalls = planToolCalls(body, lastUserText(messages), `call_sim${sequence}`, behaviour.toolCalls);
    const tokens = toolCalls.reduce((sum, call) => sum + call.fragments.length, 0);
    return { ...none, refusal: undefined, toolCalls, finishReason: 'tool_calls', tokens };
  }
  return textAnswer(input);
}

/** Reasoning unless the request turns it off with `reasoning_effort: "none"` and the model obeys. */
function reasoningCount(body: Record<string, unknown>, behaviour: SimBehaviour): number | undefined {
  if (behaviour.reasoning === undefined) return undefined;
  return body.reasoning_effort === 'none' && !behaviour.reasoningOnNone ? undefined : behaviour.reasoning;
}

export function planReply(planned: PlanInput): ReplyPlan {
  const messages = messageList(planned.body);
  const input = { ...planned, behaviour: withLabelAnswer(planned.behaviour, lastUserText(messages)) };
  const { body, behaviour } = input;
  const promptTokens = behaviour.promptTokens ?? countPromptTokens(messages);
  const { tokens, ...answer } = planAnswer(input, messages);
  const reasoningTokens = reasoningCount(body, behaviour);
  const cachedTokens = behaviour.cached === undefined ? undefined : Math.min(behaviour.cached, promptTokens);
  const uncached = promptTokens - (cachedTokens ?? 0);
  return {
    ...answer,
    reasoning: reasoningTokens ? planReasoning(reasoningTokens, behaviour.encrypted) : undefined,
    finishReason: behaviour.nativeFinish ?? answer.finishReason,
    promptTokens,
    completionTokens: tokens + (reasoningTokens ?? 0),
    reasoningTokens,
    cachedTokens,
    cacheWriteTokens: behaviour.cacheWrite === undefined ? undefined : Math.min(behaviour.cacheWrite, uncached),
    logprobs: answer.toolCalls.length > 0 || answer.refusal ? undefined : planLogprobs(answer.content, body, behaviour),
  };
}
