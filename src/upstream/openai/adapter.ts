import type { CoreEvent } from '../../core/events.js';
import type { UpstreamAdapter } from '../types.js';
import { BlockTracker } from '../block-tracker.js';
import { applyOpenAiDelta } from './delta.js';
import { buildOpenAiRequest } from './request.js';
import { OpenAiStreamDecoder } from './stream.js';
import { decodeOpenAiHttpError } from './error.js';
import { mapFinishReason, readOpenAiUsage } from './usage.js';
import { arrayOf, isPlainObject, objectOf, stringOf } from '../json-guards.js';
import { readOpenAiLogprobs } from './logprobs.js';
import { textChoiceDelta } from './text-choice.js';

/** Any OpenAI-compatible upstream: hosted APIs, vLLM, Ollama, llama.cpp server. */
export const openAiAdapter: UpstreamAdapter = {
  buildRequest: buildOpenAiRequest,
  createStreamDecoder: () => new OpenAiStreamDecoder(),
  decodeReply: decodeOpenAiReply,
  decodeError: decodeOpenAiHttpError,
};

function decodeOpenAiReply(json: unknown): CoreEvent[] {
  if (!isPlainObject(json)) {
    return [{ type: 'error', failure: { kind: 'protocol', retryable: true, providerMessage: 'Unreadable reply from the provider' } }];
  }
  const choice = objectOf(arrayOf(json.choices)[0]);
  const message = objectOf(choice?.message) ?? textChoiceDelta(choice);
  if (!message) {
    return [{ type: 'error', failure: { kind: 'protocol', retryable: true, providerMessage: 'The provider reply has no message', raw: JSON.stringify(json) } }];
  }
  const out: CoreEvent[] = [{ type: 'meta', upstreamId: stringOf(json.id), model: stringOf(json.model) }];
  const blocks = new BlockTracker();
  applyOpenAiDelta(message, blocks, out);
  blocks.closeAll(out);
  out.push(...readOpenAiLogprobs(choice?.logprobs, 0));
  const finish = stringOf(choice?.finish_reason);
  out.push({ type: 'finish', reason: finish ? mapFinishReason(finish) : 'stop', raw: finish ?? null });
  const usage = objectOf(json.usage);
  if (usage) out.push({ type: 'usage', usage: readOpenAiUsage(usage) });
  return out;
}
