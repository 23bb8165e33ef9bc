import { invalidRequest } from '../../core/errors.js';
import type { ContentPart, CoreMessage, ToolCall } from '../../core/request.js';
import type { ContentBlock, MessagesMessage, SystemTurnMessage, ToolResultBlock } from './block-schema.js';
import { mediaPart } from './media-parts.js';

/** The originating format named on reasoning details read from thinking blocks. */
export const THINKING_FORMAT = 'anthropic-claude-v1';

type SystemBody = string | { type: 'text'; text: string }[];

/**
 * `system` and `messages` of the messages dialect → the core conversation. The top-level `system`
 * comes first; a system turn inside `messages` stays at its place. A user turn's `tool_result`
 * blocks become `tool` messages ahead of the turn's other parts; pictures and documents a tool
 * returned reach the model in that user turn, labelled with the call's id.
 */
export function decodeConversation(system: SystemBody | undefined, messages: readonly MessagesMessage[]): CoreMessage[] {
  if (messages.every((message) => message.role === 'system')) {
    throw invalidRequest('messages', 'needs at least one user or assistant turn beside system turns');
  }
  const core: CoreMessage[] = [];
  const systemText = textOf(system);
  if (systemText.length > 0) core.push({ role: 'system', content: systemText });
  messages.forEach((message, position) => {
    const field = `messages[${position}]`;
    switch (message.role) {
      case 'system':
        if (shownToModel(message, messages.slice(position + 1)) && textOf(message.content).length > 0) {
          core.push({ role: 'system', content: textOf(message.content) });
        }
        return;
      case 'assistant':
        core.push(decodeAssistant(message.content, field));
        return;
      case 'user':
        core.push(...decodeUser(message.content, field));
    }
  });
  return core;
}

/** System text: a string as it is, text blocks joined by newlines. */
function textOf(system: SystemBody | undefined): string {
  return typeof system === 'string' ? system : (system ?? []).map((block) => block.text).join('\n');
}

/** A system turn with `clear_at: next_user_message` is no longer shown once a later user turn exists. */
function shownToModel(turn: SystemTurnMessage, later: readonly MessagesMessage[]): boolean {
  return turn.clear_at !== 'next_user_message' || !later.some((message) => message.role === 'user');
}

function decodeUser(content: string | ContentBlock[], field: string): CoreMessage[] {
  if (typeof content === 'string') return [{ role: 'user', content }];
  const toolMessages: CoreMessage[] = [];
  const returned: ContentPart[] = [];
  const parts: ContentPart[] = [];
  content.forEach((block, position) => {
    const blockField = `${field}.content[${position}]`;
    switch (block.type) {
      case 'tool_result': {
        const result = decodeToolResult(block, blockField);
        toolMessages.push(result.message);
        returned.push(...result.media);
        return;
      }
      case 'text':
        parts.push({ type: 'text', text: block.text });
        return;
      case 'image':
      case 'document':
        parts.push(...mediaPart(block, blockField));
        return;
      default:
        throw invalidRequest(`${blockField}.type`, `a ${block.type} block belongs in an assistant message`);
    }
  });
  const turn = [...returned, ...parts];
  return turn.length > 0 ? [...toolMessages, { role: 'user', content: turn }] : toolMessages;
}

/** A tool's result: its text as the `tool` message; returned media as a labelled user part. */
function decodeToolResult(block: ToolResultBlock, field: string): { message: CoreMessage; media: ContentPart[] } {
  const texts: string[] = [];
  const media: ContentPart[] = [];
  if (typeof block.content === 'string') texts.push(block.content);
  (Array.isArray(block.content) ? block.content : []).forEach((item, position) => {
    if (item.type === 'text') texts.push(item.text);
    else media.push(...mediaPart(item, `${field}.content[${position}]`));
  });
  const text = texts.join('\n');
  const message: CoreMessage = { role: 'tool', tool_call_id: block.tool_use_id, content: block.is_error === true ? `Error: ${text}` : text };
  if (media.length === 0) return { message, media };
  return { message, media: [{ type: 'text', text: `Returned by tool call ${block.tool_use_id}:` }, ...media] };
}

function decodeAssistant(content: string | ContentBlock[], field: string): CoreMessage {
  if (typeof content === 'string') return { role: 'assistant', content };
  let text = '';
  let reasoning = '';
  const toolCalls: ToolCall[] = [];
  const details: Record<string, unknown>[] = [];
  content.forEach((block, position) => {
    switch (block.type) {
      case 'text':
        text += block.text;
        return;
      case 'thinking':
        reasoning += block.thinking;
        details.push({
          type: 'reasoning.text',
          text: block.thinking,
          ...(block.signature ? { signature: block.signature } : {}),
          format: THINKING_FORMAT,
          index: position,
        });
        return;
      case 'redacted_thinking':
        details.push({ type: 'reasoning.encrypted', data: block.data, format: THINKING_FORMAT, index: position });
        return;
      case 'tool_use':
        toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input ?? {}) } });
        return;
      default:
        throw invalidRequest(`${field}.content[${position}].type`, `a ${block.type} block belongs in a user message`);
    }
  });
  const message: CoreMessage = { role: 'assistant', content: text.length > 0 || toolCalls.length === 0 ? text : null };
  if (toolCalls.length > 0) message.tool_calls = toolCalls;
  if (reasoning.length > 0) message.reasoning = reasoning;
  if (details.length > 0) message.reasoning_details = details;
  return message;
}
