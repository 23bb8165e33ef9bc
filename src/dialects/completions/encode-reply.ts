import type { CollectedReply } from '../../core/collect.js';
import type { ReplyAccounting, ReplyMeta } from '../shared/reply-meta.js';
import { encodeChatUsage } from '../chat/usage.js';
import { completionFinish } from './finish-reason.js';
import { textLogprobs } from './logprobs.js';

/** The `text_completion` object for a whole reply; a refusal is its text, ending with `content_filter`. */
export function encodeCompletionsReply(reply: CollectedReply, meta: ReplyMeta, accounting: ReplyAccounting): Record<string, unknown> {
  return {
    id: meta.id,
    object: 'text_completion',
    created: meta.created,
    model: meta.model,
    provider: meta.provider,
    choices: [
      {
        index: 0,
        text: reply.text + (reply.refusal ?? ''),
        logprobs: reply.logprobs ? textLogprobs(reply.logprobs) : null,
        finish_reason: completionFinish(reply.finish, reply.refusal !== undefined),
      },
    ],
    usage: encodeChatUsage(accounting),
  };
}
