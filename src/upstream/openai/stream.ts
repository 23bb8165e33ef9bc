import type { CoreEvent } from '../../core/events.js';
import type { StreamDecoder } from '../types.js';
import { BlockTracker } from '../block-tracker.js';
import { applyOpenAiDelta } from './delta.js';
import { mapFinishReason, readOpenAiUsage } from './usage.js';
import { arrayOf, isPlainObject, objectOf, parseJson, stringOf } from '../json-guards.js';
import { readOpenAiError } from './error.js';
import { ToolDispatchReader } from './tool-dispatch.js';
import { readOpenAiLogprobs } from './logprobs.js';
import { textChoiceDelta } from './text-choice.js';

export const INCOMPLETE_STREAM_MESSAGE = 'The provider stream closed before the answer finished';

/** Decodes OpenAI-compatible `chat.completion.chunk` frames into core events. */
export class OpenAiStreamDecoder implements StreamDecoder {
  private readonly blocks = new BlockTracker();
  private metaSent = false;
  private finished = false;
  private done = false;
  private usageSeen = false;
  private readonly dispatch = new ToolDispatchReader();

  frame(data: string, event?: string): CoreEvent[] {
    if (event === 'tool_call_dispatch') {
      const dispatched = this.dispatch.read(data);
      return dispatched ? [dispatched] : [];
    }
    if (data === '[DONE]') {
      this.done = true;
      return [];
    }
    const chunk = parseJson(data);
    if (!isPlainObject(chunk)) {
      return [{ type: 'error', failure: { kind: 'protocol', retryable: true, providerMessage: 'Unreadable stream frame from the provider', raw: data } }];
    }
    const out: CoreEvent[] = [];
    if (isPlainObject(chunk.error)) {
      out.push({ type: 'error', failure: { ...readOpenAiError(chunk.error), kind: 'http', retryable: true, raw: data } });
      return out;
    }
    if (!this.metaSent) {
      this.metaSent = true;
      out.push({ type: 'meta', upstreamId: stringOf(chunk.id), model: stringOf(chunk.model) });
    }
    const choice = objectOf(arrayOf(chunk.choices)[0]);
    const delta = objectOf(choice?.delta) ?? textChoiceDelta(choice);
    if (delta) applyOpenAiDelta(delta, this.blocks, out);
    if (choice?.logprobs) out.push(...readOpenAiLogprobs(choice.logprobs, 0));
    const finish = stringOf(choice?.finish_reason);
    if (finish && !this.finished) {
      this.finished = true;
      this.blocks.closeAll(out);
      out.push({ type: 'finish', reason: mapFinishReason(finish), raw: finish });
    }
    const usage = objectOf(chunk.usage);
    if (usage && !this.usageSeen) {
      this.usageSeen = true;
      out.push({ type: 'usage', usage: readOpenAiUsage(usage) });
    }
    return out;
  }

  end(): CoreEvent[] {
    if (this.finished) return [];
    if (this.done) {
      const out: CoreEvent[] = [];
      this.blocks.closeAll(out);
      out.push({ type: 'finish', reason: 'stop', raw: null });
      return out;
    }
    return [{ type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: INCOMPLETE_STREAM_MESSAGE } }];
  }
}
