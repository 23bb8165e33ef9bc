import { assertNever, type CoreEvent } from '../../core/events.js';
import { toEnvelope, type GatewayError } from '../../core/errors.js';
import type { ReplyAccounting, ReplyMeta } from '../shared/reply-meta.js';
import { SSE_DONE, sseData, sseEvent } from '../shared/sse.js';
import { reasoningDetail } from './reasoning-details.js';
import { encodeChatUsage } from './usage.js';
import { encodeChatLogprobs } from './logprobs.js';

/**
 * Core events → `chat.completion.chunk` frames. A small stateful writer: each call returns
 * the SSE text to send (possibly empty); the route owns the socket.
 */
export class ChatStreamWriter {
  private roleSent = false;
  /** The members every chunk opens with, serialised once: `{"id":…,"provider":…` without the brace that closes it. */
  private readonly headJson: string;

  constructor(private readonly meta: ReplyMeta) {
    this.headJson = JSON.stringify(this.head()).slice(0, -1);
  }

  write(event: CoreEvent): string {
    switch (event.type) {
      case 'text.delta':
        // the most frequent frame by far: framed directly, same bytes as `delta({content})`
        if (this.roleSent) return this.frame(`[{"index":0,"delta":{"content":${JSON.stringify(event.text)}},"finish_reason":null}]`);
        return this.delta({ content: event.text });
      case 'reasoning.delta': {
        const detail = reasoningDetail(event.kind, event.text, event.index, event);
        return this.delta(event.kind === 'encrypted'
          ? { reasoning_details: [detail] }
          : { reasoning: event.text, reasoning_details: [detail] });
      }
      case 'refusal.delta':
        return this.delta({ refusal: event.text });
      case 'tool.start':
        return this.delta({
          tool_calls: [{ index: event.toolIndex, id: event.id, type: 'function', function: { name: event.name, arguments: '' } }],
        });
      case 'tool.delta':
        return this.delta({ tool_calls: [{ index: event.toolIndex, function: { arguments: event.args } }] });
      case 'image':
        return this.delta({ images: [{ type: 'image_url', image_url: { url: event.url }, index: event.index }] });
      case 'audio.delta':
        return this.delta(audioFragment(event));
      case 'tool.dispatch':
        return sseEvent('tool_call_dispatch', {
          choice_index: event.choiceIndex,
          tool_call: { index: event.toolIndex, id: event.id, type: 'function', function: { name: event.name, arguments: event.arguments } },
        });
      case 'finish':
        return this.chunk([{ index: 0, delta: {}, finish_reason: event.reason, native_finish_reason: event.raw }]);
      case 'logprobs':
        return this.chunk([{ index: 0, delta: {}, logprobs: encodeChatLogprobs(event.tokens), finish_reason: null }]);
      case 'meta':
      case 'text.start':
      case 'text.end':
      case 'reasoning.start':
      case 'reasoning.end':
      case 'tool.end':
      case 'audio.end':
      case 'usage':
      case 'error':
        return '';
      default:
        return assertNever(event);
    }
  }

  open(): string {
    return '';
  }

  /** The closing usage frame (empty `choices`, `usage` and `honoured`) and `[DONE]`. */
  finish(accounting: ReplyAccounting): string {
    const honoured = accounting.honoured ?? {};
    return sseData({ ...this.head(), choices: [], usage: encodeChatUsage(accounting), honoured }) + SSE_DONE;
  }

  /** The terminal in-band error chunk after the stream opened, then `[DONE]`. */
  fail(error: GatewayError): string {
    const { error: body } = toEnvelope(error);
    return sseData({ ...this.head(), choices: [{ index: 0, delta: {}, finish_reason: 'error' }], error: body }) + SSE_DONE;
  }

  private delta(delta: Record<string, unknown>): string {
    if (!this.roleSent) {
      this.roleSent = true;
      delta = { role: 'assistant', ...delta };
    }
    return this.chunk([{ index: 0, delta, finish_reason: null }]);
  }

  private chunk(choices: unknown[]): string {
    return this.frame(JSON.stringify(choices));
  }

  private frame(choicesJson: string): string {
    return `data: ${this.headJson},"choices":${choicesJson}}\n\n`;
  }

  private head(): Record<string, unknown> {
    const { id, created, model, provider } = this.meta;
    return { id, object: 'chat.completion.chunk', created, model, provider };
  }
}

function audioFragment(event: Extract<CoreEvent, { type: 'audio.delta' }>): Record<string, unknown> {
  const audio: Record<string, unknown> = {};
  if (event.id) audio.id = event.id;
  if (event.data) audio.data = event.data;
  if (event.transcript) audio.transcript = event.transcript;
  if (event.expiresAt !== undefined) audio.expires_at = event.expiresAt;
  return { audio };
}
