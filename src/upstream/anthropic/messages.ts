import type { ContentPart, CoreMessage, ToolCall } from '../../core/request.js';
import { parseDataUrl } from '../../core/media-type.js';
import { ANTHROPIC_REASONING_FORMAT } from './blocks.js';
import { isPlainObject, parseJson, stringOf } from '../json-guards.js';

export type AnthropicBlock = Record<string, unknown>;

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: AnthropicBlock[];
}

export interface AnthropicConversation {
  /** System and developer messages, hoisted in order; absent when there were none. */
  system?: AnthropicBlock[];
  messages: AnthropicMessage[];
}

/**
 * The core's OpenAI-shaped conversation as Anthropic Messages: system and developer text becomes
 * the top-level `system`; tool results become `tool_result` blocks of a user turn; assistant tool
 * calls become `tool_use` blocks after any returned thinking; consecutive turns of one role merge,
 * as the wire alternates user and assistant.
 */
export function toAnthropicConversation(messages: readonly CoreMessage[]): AnthropicConversation {
  const system: AnthropicBlock[] = [];
  const turns: AnthropicMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system' || message.role === 'developer') {
      system.push(...textBlocks(message.content));
      continue;
    }
    const role = message.role === 'assistant' ? 'assistant' : 'user';
    const content = message.role === 'assistant' ? assistantBlocks(message)
      : message.role === 'tool' ? [toolResultBlock(message)]
        : userBlocks(message.content);
    if (content.length === 0) continue;
    const last = turns.at(-1);
    if (last?.role === role) last.content.push(...content);
    else turns.push({ role, content });
  }
  return system.length > 0 ? { system, messages: turns } : { messages: turns };
}

function textBlocks(content: CoreMessage['content']): AnthropicBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap((part) => (part.type === 'text' && part.text !== '' ? [{ type: 'text', text: part.text }] : []));
}

function userBlocks(content: CoreMessage['content']): AnthropicBlock[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  if (!Array.isArray(content)) return [];
  return content.flatMap(partBlocks);
}

/** Text, pictures and documents; audio and video have no block on this wire (routing keeps them away). */
function partBlocks(part: ContentPart): AnthropicBlock[] {
  switch (part.type) {
    case 'text':
      return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    case 'image_url':
      return [{ type: 'image', source: mediaSource(part.image_url.url) }];
    case 'file': {
      const block = fileBlock(part.file.file_data);
      return block ? [block] : [];
    }
    default:
      return [];
  }
}

/** A data URL as a `base64` source (bytes plus media type); any other URL as a `url` source. */
function mediaSource(url: string): AnthropicBlock {
  const data = parseDataUrl(url);
  if (!data) return { type: 'url', url };
  const base64 = data.base64 ? data.data : Buffer.from(decodeURIComponent(data.data), 'utf8').toString('base64');
  return { type: 'base64', media_type: data.mediaType, data: base64 };
}

function fileBlock(fileData: string | undefined): AnthropicBlock | undefined {
  if (fileData === undefined) return undefined;
  const data = parseDataUrl(fileData);
  if (!data) return { type: 'document', source: { type: 'url', url: fileData } };
  if (data.mediaType.startsWith('image/')) return { type: 'image', source: mediaSource(fileData) };
  if (data.mediaType === 'text/plain') {
    const text = data.base64 ? Buffer.from(data.data, 'base64').toString('utf8') : decodeURIComponent(data.data);
    return { type: 'document', source: { type: 'text', media_type: 'text/plain', data: text } };
  }
  return { type: 'document', source: mediaSource(fileData) };
}

function toolResultBlock(message: CoreMessage): AnthropicBlock {
  const block: AnthropicBlock = { type: 'tool_result', tool_use_id: message.tool_call_id ?? '' };
  if (typeof message.content === 'string') block.content = message.content;
  else if (Array.isArray(message.content)) block.content = message.content.flatMap(partBlocks);
  return block;
}

function assistantBlocks(message: CoreMessage): AnthropicBlock[] {
  const blocks = thinkingBlocks(message.reasoning_details ?? []);
  blocks.push(...textBlocks(message.content));
  for (const call of message.tool_calls ?? []) blocks.push(toolUseBlock(call));
  return blocks;
}

function toolUseBlock(call: ToolCall): AnthropicBlock {
  const input = parseJson(call.function.arguments);
  return { type: 'tool_use', id: call.id, name: call.function.name, input: isPlainObject(input) ? input : {} };
}

/**
 * Returned `reasoning_details` as thinking blocks, in order. Fragments sharing an index are one
 * entry (texts joined, the signed fragment's signature kept). Only entries this wire made (format
 * `anthropic-claude-v1`, or none named) that it can verify, signed text and redacted (encrypted),
 * are sent; summaries, unsigned text and other wires' reasoning are left out.
 */
function thinkingBlocks(details: readonly unknown[]): AnthropicBlock[] {
  const entries: Array<{ index: unknown; block: AnthropicBlock }> = [];
  for (const detail of details) {
    if (!isPlainObject(detail) || !isAnthropicFormat(detail.format)) continue;
    const last = entries.at(-1);
    if (detail.type === 'reasoning.text') {
      const text = stringOf(detail.text) ?? '';
      const signature = stringOf(detail.signature);
      if (last && last.block.type === 'thinking' && detail.index !== undefined && last.index === detail.index) {
        last.block.thinking = `${String(last.block.thinking)}${text}`;
        if (signature) last.block.signature = signature;
      } else {
        entries.push({ index: detail.index, block: { type: 'thinking', thinking: text, ...(signature ? { signature } : {}) } });
      }
    } else if (detail.type === 'reasoning.encrypted') {
      const data = stringOf(detail.data);
      if (data) entries.push({ index: detail.index, block: { type: 'redacted_thinking', data } });
    }
  }
  return entries.map((entry) => entry.block).filter((block) => block.type === 'redacted_thinking' || typeof block.signature === 'string');
}

/** Signed and encrypted reasoning verifies only on the wire that made it. */
function isAnthropicFormat(format: unknown): boolean {
  return format === undefined || format === ANTHROPIC_REASONING_FORMAT;
}
