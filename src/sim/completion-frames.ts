import type { SimBehaviour } from './behaviour.js';
import type { StreamFrames } from './chat-chunks.js';
import { planLogprobs, type LogprobEntry } from './logprobs-plan.js';
import type { ReplyMeta } from './reply-meta.js';
import { usageBody } from './reply-meta.js';
import type { ReplyPlan } from './reply-plan.js';
import { DONE_FRAME, sseFrame } from './sse-frame.js';

/** The text-completions wire's `logprobs` of one run of tokens, offsets counted from `offset`. */
interface TextLogprobs {
  tokens: string[];
  token_logprobs: number[];
  top_logprobs: Array<Record<string, number>>;
  text_offset: number[];
}

/** What one text-completions reply says: the prompt it echoes, if asked, then the answer tokens. */
export interface CompletionShape {
  meta: ReplyMeta;
  /** The prompt, when the request set `echo: true`. */
  echo: string | undefined;
  /** Alternatives per token when the request set `logprobs: N`; undefined = no log-probabilities. */
  logprobs: number | undefined;
  behaviour: SimBehaviour;
}

/** The chat wire's planned figures for the answer tokens, when the request asked for them. */
function plannedLogprobs(plan: ReplyPlan, shape: CompletionShape): LogprobEntry[] | undefined {
  if (shape.logprobs === undefined) return undefined;
  return planLogprobs(plan.content, { logprobs: true, top_logprobs: shape.logprobs }, shape.behaviour) ?? [];
}

/** Figures as the legacy wire writes them, offsets counted from `offset` in the reply text. */
function textLogprobs(entries: readonly LogprobEntry[] | undefined, offset: number): TextLogprobs | null {
  if (!entries) return null;
  const encoded: TextLogprobs = { tokens: [], token_logprobs: [], top_logprobs: [], text_offset: [] };
  let position = offset;
  for (const entry of entries) {
    encoded.tokens.push(entry.token);
    encoded.token_logprobs.push(entry.logprob);
    encoded.top_logprobs.push(Object.fromEntries(entry.top_logprobs.map((alternative) => [alternative.token, alternative.logprob])));
    encoded.text_offset.push(position);
    position += entry.token.length;
  }
  return encoded;
}

function choiceFrame(shape: CompletionShape, choice: Record<string, unknown>): string {
  const { meta } = shape;
  return sseFrame({ id: meta.id, object: 'text_completion', created: meta.created, model: meta.model, choices: [{ index: 0, ...choice }] });
}

/** The non-streamed `text_completion` body. */
export function completionBody(plan: ReplyPlan, shape: CompletionShape): Record<string, unknown> {
  const { meta } = shape;
  const echoed = shape.echo ?? '';
  const body: Record<string, unknown> = {
    id: meta.id,
    object: 'text_completion',
    created: meta.created,
    model: meta.model,
    choices: [{ index: 0, text: echoed + plan.content.join(''), logprobs: textLogprobs(plannedLogprobs(plan, shape), echoed.length), finish_reason: plan.finishReason }],
  };
  if (shape.behaviour.usage) body.usage = usageBody(plan);
  return body;
}

/** The streamed frames: the echoed prompt first, one frame per answer token, the finish, usage when asked, [DONE]. */
export function completionStreamFrames(plan: ReplyPlan, shape: CompletionShape, withUsage: boolean): StreamFrames {
  const content: string[] = [];
  let offset = 0;
  if (shape.echo !== undefined) {
    content.push(choiceFrame(shape, { text: shape.echo, logprobs: null, finish_reason: null }));
    offset = shape.echo.length;
  }
  const entries = plannedLogprobs(plan, shape);
  plan.content.forEach((token, i) => {
    const entry = entries?.[i];
    content.push(choiceFrame(shape, { text: token, logprobs: entries ? textLogprobs(entry ? [entry] : [], offset) : null, finish_reason: null }));
    offset += token.length;
  });
  let closing = choiceFrame(shape, { text: '', logprobs: null, finish_reason: plan.finishReason });
  if (withUsage) {
    const { meta } = shape;
    closing += sseFrame({ id: meta.id, object: 'text_completion', created: meta.created, model: meta.model, choices: [], usage: usageBody(plan) });
  }
  return { opening: '', content, dispatch: '', closing: closing + DONE_FRAME };
}
