import { assertNever, type CoreEvent, type ReasoningKind } from '../../core/events.js';
import type { GatewayError } from '../../core/errors.js';
import type { DialectStreamWriter } from '../shared/dialect-binding.js';
import type { ReplyAccounting, ReplyMeta } from '../shared/reply-meta.js';
import { sseEvent } from '../shared/sse.js';
import { messagesErrorBody } from './error-body.js';
import { dialectHonoured } from './honoured-names.js';
import { imageSource, messageId, reasoningBlock } from './reply-blocks.js';
import { stopVerdict, type AnswerEnd } from './stop-reason.js';
import { encodeDeltaUsage, encodeMessagesUsage } from './usage.js';

type OpenBlock = { position: number; kind: 'text' | 'tool' } | { position: number; kind: 'reasoning'; reasoning: ReasoningKind; data: string };

/**
 * Core events → the messages dialect's named events: `message_start`, then per block
 * `content_block_start`, its deltas and `content_block_stop`, then `message_delta` with the verdict,
 * usage and `honoured`, and `message_stop`. Blocks are numbered from 0 in the order they open;
 * a picture arrives whole (its start carries it, then its stop); opaque reasoning arrives whole as
 * a `redacted_thinking` block once it ends.
 */
export class MessagesStreamWriter implements DialectStreamWriter {
  private readonly blocks = new Map<number, OpenBlock>();
  private nextPosition = 0;
  private readonly end: AnswerEnd = { reason: undefined, raw: null, refused: false };

  constructor(private readonly meta: ReplyMeta) {}

  /** `message_start`: nothing is measured yet, so both counts are named unreported. */
  open(): string {
    return sseEvent('message_start', {
      type: 'message_start',
      message: {
        id: messageId(this.meta.id),
        type: 'message',
        role: 'assistant',
        model: this.meta.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: encodeMessagesUsage(undefined),
      },
    });
  }

  write(event: CoreEvent): string {
    switch (event.type) {
      case 'text.start':
        return this.start(event.index, { kind: 'text' }, { type: 'text', text: '' });
      case 'text.delta':
        return this.textDelta(event.index, event.text);
      case 'refusal.delta':
        this.end.refused = true;
        return this.textDelta(event.index, event.text);
      case 'reasoning.start':
        return this.startReasoning(event.index, event.kind);
      case 'reasoning.delta':
        return this.reasoningDelta(event);
      case 'tool.start':
        return this.start(event.index, { kind: 'tool' }, { type: 'tool_use', id: event.id, name: event.name, input: {} });
      case 'tool.delta':
        return this.delta(event.index, { type: 'input_json_delta', partial_json: event.args });
      case 'image':
        return this.start(event.index, { kind: 'text' }, { type: 'image', source: imageSource(event.url) }) + this.stop(event.index);
      case 'text.end':
      case 'reasoning.end':
      case 'tool.end':
        return this.stop(event.index);
      case 'finish':
        this.end.reason = event.reason;
        this.end.raw = event.raw;
        if (event.stopSequence !== undefined) this.end.stopSequence = event.stopSequence;
        return '';
      case 'meta':
      case 'audio.delta':
      case 'audio.end':
      case 'tool.dispatch':
      case 'logprobs':
      case 'usage':
      case 'error':
        return '';
      default:
        return assertNever(event);
    }
  }

  /** Closes what is open, then `message_delta` (verdict, usage, `honoured`) and `message_stop`. */
  finish(accounting: ReplyAccounting): string {
    const honoured = dialectHonoured(accounting.honoured ?? {});
    const delta = {
      type: 'message_delta',
      delta: stopVerdict(this.end),
      usage: encodeDeltaUsage(accounting.usage),
      ...(Object.keys(honoured).length > 0 ? { honoured } : {}),
    };
    return this.stopAll() + sseEvent('message_delta', delta) + sseEvent('message_stop', { type: 'message_stop' });
  }

  /** The terminal `error` event after the stream opened, in the dialect's error envelope. */
  fail(error: GatewayError): string {
    return sseEvent('error', messagesErrorBody(error));
  }

  private start(index: number, block: { kind: 'text' | 'tool' }, contentBlock: Record<string, unknown>): string {
    const position = this.nextPosition++;
    this.blocks.set(index, { position, ...block });
    return sseEvent('content_block_start', { type: 'content_block_start', index: position, content_block: contentBlock });
  }

  private startReasoning(index: number, kind: ReasoningKind): string {
    if (kind === 'encrypted') {
      this.blocks.set(index, { position: -1, kind: 'reasoning', reasoning: kind, data: '' });
      return '';
    }
    const position = this.nextPosition++;
    this.blocks.set(index, { position, kind: 'reasoning', reasoning: kind, data: '' });
    return sseEvent('content_block_start', { type: 'content_block_start', index: position, content_block: reasoningBlock(kind, '', '') });
  }

  private textDelta(index: number, text: string): string {
    const opened = this.blocks.has(index) ? '' : this.start(index, { kind: 'text' }, { type: 'text', text: '' });
    return opened + this.delta(index, { type: 'text_delta', text });
  }

  private reasoningDelta(event: Extract<CoreEvent, { type: 'reasoning.delta' }>): string {
    const opened = this.blocks.has(event.index) ? '' : this.startReasoning(event.index, event.kind);
    const block = this.blocks.get(event.index);
    if (block?.kind === 'reasoning' && block.reasoning === 'encrypted') {
      block.data += event.text;
      return opened;
    }
    let text = opened;
    if (event.text.length > 0) text += this.delta(event.index, { type: 'thinking_delta', thinking: event.text });
    if (event.signature !== undefined) text += this.delta(event.index, { type: 'signature_delta', signature: event.signature });
    return text;
  }

  private delta(index: number, delta: Record<string, unknown>): string {
    const block = this.blocks.get(index);
    if (!block) return '';
    return sseEvent('content_block_delta', { type: 'content_block_delta', index: block.position, delta });
  }

  private stop(index: number): string {
    const block = this.blocks.get(index);
    if (!block) return '';
    this.blocks.delete(index);
    if (block.kind === 'reasoning' && block.reasoning === 'encrypted') {
      const position = this.nextPosition++;
      return sseEvent('content_block_start', { type: 'content_block_start', index: position, content_block: reasoningBlock('encrypted', block.data, undefined) })
        + sseEvent('content_block_stop', { type: 'content_block_stop', index: position });
    }
    return sseEvent('content_block_stop', { type: 'content_block_stop', index: block.position });
  }

  private stopAll(): string {
    let text = '';
    for (const index of [...this.blocks.keys()]) text += this.stop(index);
    return text;
  }
}
