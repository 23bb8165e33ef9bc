import type { CoreEvent } from '../../core/events.js';
import type { StreamDecoder } from '../types.js';
import { AnthropicBlockReader } from './blocks.js';
import { decodeAnthropicStreamError } from './error.js';
import { finishEvent, readAnthropicUsage } from './usage.js';
import { countOf, isPlainObject, objectOf, parseJson, stringOf, type JsonObject } from '../json-guards.js';
import { INCOMPLETE_STREAM_MESSAGE } from '../openai/stream.js';

/**
 * Decodes the Anthropic Messages event sequence: `message_start`, `content_block_start` /
 * `_delta` / `_stop` per block, `message_delta` (stop reason, cumulative usage), `message_stop`,
 * with `ping` and unknown events ignored and `error` terminal. The event type is read from the
 * data's own `type`, which every Anthropic event repeats.
 */
export class AnthropicStreamDecoder implements StreamDecoder {
  private readonly blocks = new AnthropicBlockReader();
  private readonly usageReports: JsonObject[] = [];
  private finished = false;

  frame(data: string): CoreEvent[] {
    const event = parseJson(data);
    if (!isPlainObject(event)) {
      return [{ type: 'error', failure: { kind: 'protocol', retryable: true, providerMessage: 'Unreadable stream frame from the provider', raw: data } }];
    }
    const out: CoreEvent[] = [];
    switch (event.type) {
      case 'message_start':
        this.messageStart(objectOf(event.message), out);
        break;
      case 'content_block_start': {
        const block = objectOf(event.content_block);
        const index = countOf(event.index);
        if (block && index !== undefined) this.blocks.start(index, block, out);
        break;
      }
      case 'content_block_delta': {
        const delta = objectOf(event.delta);
        const index = countOf(event.index);
        if (delta && index !== undefined) this.blocks.delta(index, delta, out);
        break;
      }
      case 'content_block_stop': {
        const index = countOf(event.index);
        if (index !== undefined) this.blocks.stop(index, out);
        break;
      }
      case 'message_delta':
        this.messageDelta(event, out);
        break;
      case 'error':
        out.push({ type: 'error', failure: decodeAnthropicStreamError(data, objectOf(event.error) ?? {}) });
        break;
      default:
        break;
    }
    return out;
  }

  end(): CoreEvent[] {
    if (this.finished) return [];
    return [{ type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: INCOMPLETE_STREAM_MESSAGE } }];
  }

  private messageStart(message: JsonObject | undefined, out: CoreEvent[]): void {
    out.push({ type: 'meta', upstreamId: stringOf(message?.id), model: stringOf(message?.model) });
    const usage = objectOf(message?.usage);
    if (usage) this.usageReports.push(usage);
  }

  /** The verdict: every block is closed, then the finish and the usage both reports add up to. */
  private messageDelta(event: JsonObject, out: CoreEvent[]): void {
    const usage = objectOf(event.usage);
    if (usage) this.usageReports.push(usage);
    const delta = objectOf(event.delta);
    const stopReason = stringOf(delta?.stop_reason);
    if (this.finished || !stopReason) return;
    this.finished = true;
    this.blocks.closeAll(out);
    out.push(finishEvent(stopReason, stringOf(delta?.stop_sequence)));
    if (this.usageReports.length > 0) out.push({ type: 'usage', usage: readAnthropicUsage(...this.usageReports) });
  }
}
