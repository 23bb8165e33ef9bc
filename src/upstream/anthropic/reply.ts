import type { CoreEvent } from '../../core/events.js';
import { AnthropicBlockReader } from './blocks.js';
import { readAnthropicError } from './error.js';
import { finishEvent, readAnthropicUsage } from './usage.js';
import { arrayOf, isPlainObject, objectOf, stringOf } from '../json-guards.js';

/** A non-streamed Anthropic `message` as the same core events a stream of it would give. */
export function decodeAnthropicReply(json: unknown): CoreEvent[] {
  if (!isPlainObject(json)) {
    return [{ type: 'error', failure: { kind: 'protocol', retryable: true, providerMessage: 'Unreadable reply from the provider' } }];
  }
  if (json.type === 'error' && isPlainObject(json.error)) {
    return [{ type: 'error', failure: { kind: 'http', retryable: true, ...readAnthropicError(json.error), raw: JSON.stringify(json) } }];
  }
  if (!Array.isArray(json.content)) {
    return [{ type: 'error', failure: { kind: 'protocol', retryable: true, providerMessage: 'The provider reply has no content', raw: JSON.stringify(json) } }];
  }
  const out: CoreEvent[] = [{ type: 'meta', upstreamId: stringOf(json.id), model: stringOf(json.model) }];
  const blocks = new AnthropicBlockReader();
  for (const block of arrayOf(json.content)) {
    if (isPlainObject(block)) blocks.whole(block, out);
  }
  const stopReason = stringOf(json.stop_reason);
  out.push(stopReason ? finishEvent(stopReason, stringOf(json.stop_sequence)) : { type: 'finish', reason: 'stop', raw: null });
  const usage = objectOf(json.usage);
  if (usage) out.push({ type: 'usage', usage: readAnthropicUsage(usage) });
  return out;
}
