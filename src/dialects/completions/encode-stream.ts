import type { CoreEvent, FinishReason, TokenLogprob } from '../../core/events.js';
import { toEnvelope, type GatewayError } from '../../core/errors.js';
import type { CoreRequest } from '../../core/request.js';
import type { ReplyAccounting, ReplyMeta } from '../shared/reply-meta.js';
import { SSE_DONE, sseData } from '../shared/sse.js';
import { encodeChatUsage } from '../chat/usage.js';
import { completionFinish } from './finish-reason.js';
import { textLogprobs } from './logprobs.js';

/**
 * Core events → `text_completion` frames with `choices[].text` deltas, a finish frame, the final
 * frame with `usage` and `honoured`, then `[DONE]`. When the caller asked for log-probabilities, a
 * text fragment waits for the figures of its tokens so that both travel in one frame. A refusal's
 * fragments are text like any other, and the answer then ends with `content_filter`.
 */
export class CompletionsStreamWriter {
  private pending: { text: string; logprobs?: TokenLogprob[] } | undefined;
  private offset = 0;
  private refused = false;
  private readonly holdsText: boolean;

  constructor(private readonly meta: ReplyMeta, request: CoreRequest) {
    this.holdsText = request.parameters.logprobs !== undefined;
  }

  open(): string {
    return '';
  }

  write(event: CoreEvent): string {
    switch (event.type) {
      case 'text.delta': {
        const before = this.flush();
        if (!this.holdsText) return before + this.choice(event.text, undefined, null);
        this.pending = { text: event.text };
        return before;
      }
      case 'refusal.delta':
        this.refused = true;
        return this.flush() + this.choice(event.text, undefined, null);
      case 'logprobs':
        if (this.pending && !this.pending.logprobs) {
          this.pending.logprobs = event.tokens;
          return this.flush();
        }
        return this.flush() + this.choice('', event.tokens, null);
      case 'finish':
        return this.flush() + this.choice('', undefined, completionFinish(event.reason, this.refused));
      default:
        return this.flush();
    }
  }

  /** The closing frame (empty `choices`, `usage` and `honoured`) and `[DONE]`. */
  finish(accounting: ReplyAccounting): string {
    const honoured = accounting.honoured ?? {};
    return this.flush() + sseData({ ...this.head(), choices: [], usage: encodeChatUsage(accounting), honoured }) + SSE_DONE;
  }

  /** The terminal in-band error frame after the stream opened (the chat error chunk's shape), then `[DONE]`. */
  fail(error: GatewayError): string {
    const { error: body } = toEnvelope(error);
    return this.flush() + sseData({ ...this.head(), choices: [this.entry('', undefined, 'error')], error: body }) + SSE_DONE;
  }

  private flush(): string {
    const pending = this.pending;
    if (!pending) return '';
    this.pending = undefined;
    return this.choice(pending.text, pending.logprobs, null);
  }

  private choice(text: string, logprobs: readonly TokenLogprob[] | undefined, finish: FinishReason | null): string {
    return sseData({ ...this.head(), choices: [this.entry(text, logprobs, finish)] });
  }

  /** `choices[0]` of a frame: every frame, the error frame included, has the same members. */
  private entry(text: string, logprobs: readonly TokenLogprob[] | undefined, finish: FinishReason | null): Record<string, unknown> {
    const encoded = logprobs ? textLogprobs(logprobs, this.offset) : null;
    this.offset += text.length;
    return { index: 0, text, logprobs: encoded, finish_reason: finish };
  }

  private head(): Record<string, unknown> {
    const { id, created, model, provider } = this.meta;
    return { id, object: 'text_completion', created, model, provider };
  }
}
