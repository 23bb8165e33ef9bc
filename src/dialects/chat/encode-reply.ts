import type { CollectedReply } from '../../core/collect.js';
import type { ReplyAccounting, ReplyMeta } from '../shared/reply-meta.js';
import { reasoningDetail } from './reasoning-details.js';
import { encodeChatUsage } from './usage.js';
import { encodeChatLogprobs } from './logprobs.js';

/** The `chat.completion` object for a whole reply. */
export function encodeChatReply(reply: CollectedReply, meta: ReplyMeta, accounting: ReplyAccounting): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'chat.completion',
    created: meta.created,
    model: meta.model,
    provider: meta.provider,
    // OpenAI-compatible clients require the member; the service does not fingerprint its backends.
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: encodeMessage(reply),
        finish_reason: reply.finish ?? 'stop',
        native_finish_reason: reply.nativeFinish,
        ...(reply.logprobs && { logprobs: encodeChatLogprobs(reply.logprobs) }),
      },
    ],
    usage: encodeChatUsage(accounting),
  };
}

function encodeMessage(reply: CollectedReply): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: messageContent(reply) };
  const reasoningText = readableReasoning(reply);
  if (reasoningText) message.reasoning = reasoningText;
  if (reply.reasoning.length > 0) {
    message.reasoning_details = reply.reasoning.map((entry) => reasoningDetail(entry.kind, entry.text, entry.index, entry));
  }
  if (reply.refusal !== undefined) message.refusal = reply.refusal;
  if (reply.toolCalls.length > 0) {
    message.tool_calls = reply.toolCalls.map((call) => ({
      id: call.id,
      type: 'function',
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  if (reply.images.length > 0) {
    message.images = reply.images.map((image) => ({ type: 'image_url', image_url: { url: image.url }, index: image.index }));
  }
  if (reply.audio) {
    message.audio = {
      id: reply.audio.id ?? '',
      data: reply.audio.data,
      expires_at: reply.audio.expiresAt ?? null,
      transcript: reply.audio.transcript,
    };
  }
  return message;
}

/** Between two reasoning blocks in the whole reply's `reasoning`. */
const REASONING_BLOCK_SEPARATOR = '\n\n';

/**
 * The readable reasoning (text and summaries; opaque blobs have no words): one paragraph per
 * reasoning block, separated by a blank line, as separate thoughts read. The stream sends each
 * fragment as it comes and adds nothing between blocks; `reasoning_details` keeps them apart.
 */
function readableReasoning(reply: CollectedReply): string {
  return reply.reasoning
    .filter((entry) => entry.kind !== 'encrypted' && entry.text !== '')
    .map((entry) => entry.text)
    .join(REASONING_BLOCK_SEPARATOR);
}

/**
 * Text when there is text; "" when the answer is a picture (spec 01) or empty; null, as the
 * endpoint sends it, when the answer is a tool call, a refusal or audio (its transcript holds the words).
 */
function messageContent(reply: CollectedReply): string | null {
  if (reply.hasText) return reply.text;
  if (reply.images.length > 0) return '';
  if (reply.toolCalls.length > 0 || reply.refusal !== undefined || reply.audio) return null;
  return '';
}
