import type { FinishReason } from '../../core/events.js';

/**
 * The `finish_reason` of a text completion. The dialect has no member of its own for a refusal, so a
 * refusal's text is the completion's text and the answer ends with `content_filter`, the finish the
 * spec lists for an answer the model withheld, as a refusal read from the Anthropic wire already
 * does. A refusal cut by the ceiling still says `length`.
 */
export function completionFinish(reason: FinishReason | undefined, refused: boolean): FinishReason {
  const finish = reason ?? 'stop';
  return refused && finish === 'stop' ? 'content_filter' : finish;
}
