import { invalidRequest } from '../../core/errors.js';
import type { ContentPart, CoreMessage, ToolCall } from '../../core/request.js';
import { isItem, readContentBlock, textOf, type Item } from './content-blocks.js';
import type { ToolNames } from './tools.js';

/** A returned picture or file waiting for the user turn that follows the function results (rule 2). */
interface Attachment {
  callId: string;
  parts: ContentPart[];
}

/**
 * The `input` of a responses request as the core conversation. A string is one user turn; an array
 * holds `message`, `function_call` and `function_call_output` items, read in order. The whole
 * conversation travels each turn (rule 5): nothing is looked up from an earlier response.
 */
export function readInput(input: string | unknown[], names: ToolNames): CoreMessage[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  const reader = new ConversationReader(names);
  input.forEach((item, index) => reader.read(item, `input[${index}]`));
  return reader.finish();
}

class ConversationReader {
  private readonly messages: CoreMessage[] = [];
  private attachments: Attachment[] = [];

  constructor(private readonly names: ToolNames) {}

  read(item: unknown, field: string): void {
    if (!isItem(item)) throw invalidRequest(field, 'must be an object');
    const type = item.type ?? (item.role !== undefined ? 'message' : undefined);
    if (type !== 'function_call_output') this.flushAttachments();
    switch (type) {
      case 'message':
        this.messages.push(readMessage(item, field));
        return;
      case 'function_call':
        this.addCall(item, field);
        return;
      case 'function_call_output':
        this.messages.push(this.readOutput(item, field));
        return;
      default:
        throw invalidRequest(`${field}.type`, `unsupported input item type ${JSON.stringify(type)} (message, function_call or function_call_output)`);
    }
  }

  finish(): CoreMessage[] {
    this.flushAttachments();
    if (this.messages.length === 0) throw invalidRequest('input', 'must hold at least one item');
    return this.messages;
  }

  /** Consecutive calls belong to one assistant turn, after any text the assistant wrote. */
  private addCall(item: Item, field: string): void {
    const call: ToolCall = {
      id: stringMember(item, 'call_id', field),
      type: 'function',
      function: {
        name: this.names.upstreamName(stringMember(item, 'name', field), optionalNamespace(item, field)),
        arguments: stringMember(item, 'arguments', field),
      },
    };
    const last = this.messages.at(-1);
    if (last?.role === 'assistant') {
      last.tool_calls = [...(last.tool_calls ?? []), call];
      return;
    }
    this.messages.push({ role: 'assistant', content: null, tool_calls: [call] });
  }

  /**
   * A function's result. Text blocks become the tool message; a picture or file is named there and
   * travels in the next user turn, labelled with the call id; a block of another type is named and
   * its payload dropped.
   */
  private readOutput(item: Item, field: string): CoreMessage {
    const callId = stringMember(item, 'call_id', field);
    const output = item.output;
    if (typeof output === 'string') return { role: 'tool', tool_call_id: callId, content: output };
    if (!Array.isArray(output)) throw invalidRequest(`${field}.output`, 'must be a string or an array of content blocks');
    const texts: string[] = [];
    const attached: ContentPart[] = [];
    output.forEach((block, index) => {
      const blockField = `${field}.output[${index}]`;
      const part = readContentBlock(block, blockField);
      const type = isItem(block) ? String(block.type) : 'unknown';
      if (part?.type === 'text') texts.push(part.text);
      else if (part) {
        attached.push(part);
        texts.push(`[${type} attached in the next user turn]`);
      } else texts.push(`[${type} block dropped: not supported in a function result]`);
    });
    if (attached.length > 0) this.attachments.push({ callId, parts: attached });
    return { role: 'tool', tool_call_id: callId, content: texts.join('\n') };
  }

  private flushAttachments(): void {
    if (this.attachments.length === 0) return;
    const content: ContentPart[] = [];
    for (const { callId, parts } of this.attachments) {
      content.push({ type: 'text', text: `Returned by function call ${callId}:` }, ...parts);
    }
    this.messages.push({ role: 'user', content });
    this.attachments = [];
  }
}

const ROLES = new Set(['user', 'assistant', 'system', 'developer']);

/** A message item; `system` and `developer` become system content (rule 1). */
function readMessage(item: Item, field: string): CoreMessage {
  const role = item.role;
  if (typeof role !== 'string' || !ROLES.has(role)) {
    throw invalidRequest(`${field}.role`, 'must be one of "user", "assistant", "system", "developer"');
  }
  const content = item.content;
  if (typeof content === 'string') return { role: role === 'developer' ? 'system' : (role as CoreMessage['role']), content };
  if (!Array.isArray(content)) throw invalidRequest(`${field}.content`, 'must be a string or an array of content blocks');
  if (role === 'assistant') return readAssistant(content, field);
  const parts = content.map((block, index) => {
    const part = readContentBlock(block, `${field}.content[${index}]`);
    if (!part) throw invalidRequest(`${field}.content[${index}].type`, `unsupported content block type ${JSON.stringify(isItem(block) ? block.type : undefined)}`);
    return part;
  });
  if (role === 'user') return { role: 'user', content: parts };
  if (parts.some((part) => part.type !== 'text')) throw invalidRequest(`${field}.content`, `${role} content holds text blocks only`);
  return { role: 'system', content: textOf(parts) };
}

/** An earlier assistant turn: its text blocks, and its refusal where it refused. */
function readAssistant(content: unknown[], field: string): CoreMessage {
  let text = '';
  let refusal: string | undefined;
  content.forEach((block, index) => {
    const blockField = `${field}.content[${index}]`;
    if (isItem(block) && block.type === 'refusal') {
      refusal = (refusal ?? '') + stringMember(block, 'refusal', blockField);
      return;
    }
    const part = readContentBlock(block, blockField);
    if (part?.type !== 'text') throw invalidRequest(`${blockField}.type`, 'assistant content holds output_text or refusal blocks');
    text += part.text;
  });
  const message: CoreMessage = { role: 'assistant', content: text };
  if (refusal !== undefined) message.refusal = refusal;
  return message;
}

function stringMember(item: Item, member: string, field: string): string {
  const value = item[member];
  if (typeof value !== 'string') throw invalidRequest(`${field}.${member}`, 'is required and must be a string');
  return value;
}

function optionalNamespace(item: Item, field: string): string | undefined {
  const value = item.namespace;
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw invalidRequest(`${field}.namespace`, 'must be a string');
  return value;
}
