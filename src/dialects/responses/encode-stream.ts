import { assertNever, type CoreEvent, type FinishReason } from '../../core/events.js';
import type { GatewayError } from '../../core/errors.js';
import type { CoreRequest } from '../../core/request.js';
import type { ReplyAccounting, ReplyMeta } from '../shared/reply-meta.js';
import { sseEvent } from '../shared/sse.js';
import { failureCode, failureMessage } from './failure.js';
import { functionCallItem, messageItem, type FunctionCallItem, type MessageItem, type OutputPart } from './output-items.js';
import { encodeResponsesUsage, responseIds, responseObject, statusOf, type ResponseIds, type ResponseState } from './response-object.js';

interface OpenMessage {
  outputIndex: number;
  item: MessageItem;
  /** The content part still receiving deltas, if any. */
  open?: OutputPart;
}

interface OpenCall {
  outputIndex: number;
  item: FunctionCallItem;
  /** The flat name the endpoint used. */
  upstreamName: string;
}

/**
 * Core events → the responses dialect's named events, each with an increasing `sequence_number`.
 * Items open lazily on their first content, so the events always describe what was produced; the
 * terminal `response.completed` carries the same output, assembled, and the usage.
 */
export class ResponsesStreamWriter {
  private sequence = 0;
  private readonly ids: ResponseIds;
  private readonly output: Array<MessageItem | FunctionCallItem> = [];
  private message: OpenMessage | undefined;
  private readonly calls = new Map<number, OpenCall>();
  private finishReason: FinishReason | undefined;

  constructor(private readonly meta: ReplyMeta, private readonly request: CoreRequest) {
    this.ids = responseIds(meta.id);
  }

  open(): string {
    const response = this.response({ status: 'in_progress', output: [], usage: null });
    return this.emit('response.created', { response }) + this.emit('response.in_progress', { response });
  }

  write(event: CoreEvent): string {
    switch (event.type) {
      case 'text.delta':
        return this.textDelta(event.text);
      case 'refusal.delta':
        return this.refusalDelta(event.text);
      case 'text.end':
        return this.closePart();
      case 'image':
        return this.image(event.url);
      case 'audio.delta':
        return this.audioDelta(event);
      case 'audio.end':
        return this.closePart();
      case 'tool.start':
        return this.toolStart(event);
      case 'tool.delta':
        return this.toolDelta(event.toolIndex, event.args);
      case 'tool.end':
        return this.toolEnd(event.toolIndex);
      case 'finish':
        this.finishReason = event.reason;
        return '';
      case 'meta':
      case 'text.start':
      case 'reasoning.start':
      case 'reasoning.delta':
      case 'reasoning.end':
      case 'tool.dispatch':
      case 'logprobs':
      case 'usage':
      case 'error':
        return '';
      default:
        return assertNever(event);
    }
  }

  /** Closes what is still open, then `response.completed` (its status `incomplete` when the ceiling ended it). */
  finish(accounting: ReplyAccounting): string {
    let text = this.closeMessage();
    for (const toolIndex of [...this.calls.keys()]) text += this.toolEnd(toolIndex);
    const response = this.response({ status: statusOf(this.finishReason), output: this.output, usage: encodeResponsesUsage(accounting.usage) });
    return text + this.emit('response.completed', { response });
  }

  /**
   * `event: error`, then `response.failed` with the failure's code and the same message (spec 01:
   * exactly that sequence ends a committed stream that failed). What was open stays open: no
   * `.done` event claims that a part or item cut by the failure finished (clients keep a done item
   * as final), and `response.failed` shows it `in_progress` with what it had received.
   */
  fail(error: GatewayError): string {
    const message = failureMessage(error);
    const failed = this.response({ status: 'failed', output: this.output, usage: null, error: { code: failureCode(error), message } });
    return this.emit('error', { code: null, message, param: null }) + this.emit('response.failed', { response: failed });
  }

  private textDelta(delta: string): string {
    const { text, message, part } = this.ensurePart('output_text');
    if (part.type === 'output_text') part.text += delta;
    return text + this.emit('response.output_text.delta', { ...this.partAddress(message), delta, logprobs: [] });
  }

  private refusalDelta(delta: string): string {
    const { text, message, part } = this.ensurePart('refusal');
    if (part.type === 'refusal') part.refusal += delta;
    return text + this.emit('response.refusal.delta', { ...this.partAddress(message), delta });
  }

  /** A picture arrives whole: its part is added and done at once. */
  private image(url: string): string {
    let text = this.closePart();
    const opened = this.ensureMessage();
    const part: OutputPart = { type: 'output_image', image_url: url };
    opened.message.item.content.push(part);
    const address = this.partAddress(opened.message);
    text += opened.text + this.emit('response.content_part.added', { ...address, part });
    return text + this.emit('response.content_part.done', { ...address, part });
  }

  private audioDelta(event: Extract<CoreEvent, { type: 'audio.delta' }>): string {
    const { text, message, part } = this.ensurePart('output_audio');
    if (part.type !== 'output_audio') return text;
    let out = text;
    if (event.id) part.id = event.id;
    if (event.expiresAt !== undefined) part.expires_at = event.expiresAt;
    const address = this.partAddress(message);
    if (event.data) {
      part.data += event.data;
      out += this.emit('response.output_audio.delta', { ...address, delta: event.data });
    }
    if (event.transcript) {
      part.transcript += event.transcript;
      out += this.emit('response.output_audio.transcript.delta', { ...address, delta: event.transcript });
    }
    return out;
  }

  private toolStart(event: Extract<CoreEvent, { type: 'tool.start' }>): string {
    const text = this.closeMessage();
    const outputIndex = this.output.length;
    const item = functionCallItem(
      { id: this.ids.item('fc', outputIndex), callId: event.id, name: event.name, arguments: '', status: 'in_progress' },
      this.request.toolOrigins,
    );
    this.output.push(item);
    this.calls.set(event.toolIndex, { outputIndex, item, upstreamName: event.name });
    return text + this.emit('response.output_item.added', { output_index: outputIndex, item: { ...item } });
  }

  private toolDelta(toolIndex: number, delta: string): string {
    const call = this.calls.get(toolIndex);
    if (!call) return '';
    call.item.arguments += delta;
    return this.emit('response.function_call_arguments.delta', { item_id: call.item.id, output_index: call.outputIndex, delta });
  }

  private toolEnd(toolIndex: number): string {
    const call = this.calls.get(toolIndex);
    if (!call) return '';
    this.calls.delete(toolIndex);
    call.item.status = 'completed';
    const { id, name, arguments: args } = call.item;
    return this.emit('response.function_call_arguments.done', { item_id: id, output_index: call.outputIndex, name, arguments: args })
      + this.emit('response.output_item.done', { output_index: call.outputIndex, item: call.item });
  }

  private ensureMessage(): { text: string; message: OpenMessage } {
    if (this.message) return { text: '', message: this.message };
    const outputIndex = this.output.length;
    const item = messageItem(this.ids.item('msg', outputIndex), 'in_progress', []);
    this.output.push(item);
    this.message = { outputIndex, item };
    return { text: this.emit('response.output_item.added', { output_index: outputIndex, item: { ...item, content: [] } }), message: this.message };
  }

  /** The open part of `type`, opening the message and the part (closing another kind) as needed. */
  private ensurePart(type: 'output_text' | 'refusal' | 'output_audio'): { text: string; message: OpenMessage; part: OutputPart } {
    let text = this.message?.open && this.message.open.type !== type ? this.closePart() : '';
    const opened = this.ensureMessage();
    text += opened.text;
    const message = opened.message;
    if (message.open) return { text, message, part: message.open };
    const part = emptyPart(type);
    message.item.content.push(part);
    message.open = part;
    text += this.emit('response.content_part.added', { ...this.partAddress(message), part: { ...part } });
    return { text, message, part };
  }

  private closePart(): string {
    const message = this.message;
    const part = message?.open;
    if (!message || !part) return '';
    const address = this.partAddress(message);
    message.open = undefined;
    let text = '';
    if (part.type === 'output_text') text += this.emit('response.output_text.done', { ...address, text: part.text, logprobs: [] });
    if (part.type === 'refusal') text += this.emit('response.refusal.done', { ...address, refusal: part.refusal });
    if (part.type === 'output_audio') {
      text += this.emit('response.output_audio.done', address);
      text += this.emit('response.output_audio.transcript.done', { ...address, transcript: part.transcript });
    }
    return text + this.emit('response.content_part.done', { ...address, part });
  }

  private closeMessage(): string {
    const message = this.message;
    if (!message) return '';
    const text = this.closePart();
    this.message = undefined;
    message.item.status = this.finishReason === 'length' ? 'incomplete' : 'completed';
    return text + this.emit('response.output_item.done', { output_index: message.outputIndex, item: message.item });
  }

  /** Where the open part sits: its item, the item's position and the part's position. */
  private partAddress(message: OpenMessage): { item_id: string; output_index: number; content_index: number } {
    return { item_id: message.item.id, output_index: message.outputIndex, content_index: message.item.content.length - 1 };
  }

  private response(state: ResponseState): Record<string, unknown> {
    return responseObject(this.meta, state);
  }

  private emit(type: string, payload: Record<string, unknown>): string {
    const event = { type, sequence_number: this.sequence, ...payload };
    this.sequence += 1;
    return sseEvent(type, event);
  }
}

function emptyPart(type: 'output_text' | 'refusal' | 'output_audio'): OutputPart {
  switch (type) {
    case 'output_text':
      return { type, text: '', annotations: [] };
    case 'refusal':
      return { type, refusal: '' };
    case 'output_audio':
      return { type, data: '', transcript: '', id: '', expires_at: null };
  }
}
