import type { CollectedReply } from '../../core/collect.js';
import type { ReplyAccounting, ReplyMeta } from '../shared/reply-meta.js';
import { imageSource, messageId, reasoningBlock, toolInput } from './reply-blocks.js';
import { stopVerdict } from './stop-reason.js';
import { encodeMessagesUsage } from './usage.js';

/**
 * The `message` object for a whole reply. Blocks come in answer order: thinking, text, pictures,
 * tool calls. No server-tool blocks, citations or `usage.server_tool_use` ever appear.
 */
export function encodeMessagesReply(reply: CollectedReply, meta: ReplyMeta, accounting: ReplyAccounting): Record<string, unknown> {
  return {
    id: messageId(meta.id),
    type: 'message',
    role: 'assistant',
    model: meta.model,
    content: contentBlocks(reply),
    ...stopVerdict({ reason: reply.finish, raw: reply.nativeFinish, stopSequence: reply.stopSequence, refused: reply.refusal !== undefined }),
    usage: encodeMessagesUsage(accounting.usage),
  };
}

function contentBlocks(reply: CollectedReply): Record<string, unknown>[] {
  const blocks: Record<string, unknown>[] = [];
  for (const entry of [...reply.reasoning].sort((a, b) => a.index - b.index)) {
    blocks.push(reasoningBlock(entry.kind, entry.text, entry.signature));
  }
  const text = reply.text + (reply.refusal ?? '');
  if (reply.hasText || reply.refusal !== undefined) blocks.push({ type: 'text', text });
  for (const image of reply.images) blocks.push({ type: 'image', source: imageSource(image.url) });
  for (const call of reply.toolCalls) blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: toolInput(call.arguments) });
  return blocks;
}
