import type { CoreEvent } from '../../core/events.js';
import type { StreamDecoder } from '../types.js';
import { BlockTracker } from '../block-tracker.js';
import { applyOpenAiDelta } from './delta.js';
import { mapFinishReason, readOpenAiUsage } from './usage.js';
import { arrayOf, isPlainObject, objectOf, parseJson, stringOf, type JsonObject } from '../json-guards.js';
import { readOpenAiError } from './error.js';
import { ToolDispatchReader } from './tool-dispatch.js';
import { readOpenAiLogprobs } from './logprobs.js';
import { textChoiceDelta } from './text-choice.js';

export const INCOMPLETE_STREAM_MESSAGE = 'The provider stream closed before the answer finished';

/** Stands in for the text when a learnt frame is checked: valid in a JSON string, unlikely in a frame. */
const PROBE_TEXT = '\ue000probe\ue001';
/** Frames learnt at most per stream: one whose frames vary byte by byte (a random padding member) stops trying. */
const MOST_LEARNT_FRAMES = 3;

/**
 * The bytes of a frame that carries nothing but a piece of text, around that text. A provider
 * sends the same bytes around every piece of a stream (its id, model and timestamps do not
 * change), so a frame made of `before`, a text with no quote, backslash or control character, and
 * `after` is, by construction, the learnt frame with another text: the same JSON, read without
 * parsing it. Learnt from a frame parsed whole, and checked by parsing it again with a probe text.
 */
interface TextFrame {
  before: string;
  after: string;
}

/** Decodes OpenAI-compatible `chat.completion.chunk` frames into core events. */
export class OpenAiStreamDecoder implements StreamDecoder {
  private readonly blocks = new BlockTracker();
  private metaSent = false;
  private finished = false;
  private done = false;
  private usageSeen = false;
  private readonly dispatch = new ToolDispatchReader();
  private textFrame: TextFrame | undefined;
  private learntFrames = 0;

  frame(data: string, event?: string): CoreEvent[] {
    if (event === undefined && this.textFrame) {
      const text = textIn(data, this.textFrame);
      if (text !== undefined) {
        const out: CoreEvent[] = [];
        this.blocks.text(text, out);
        return out;
      }
    }
    if (event === 'tool_call_dispatch') {
      const dispatched = this.dispatch.read(data);
      return dispatched ? [dispatched] : [];
    }
    if (data === '[DONE]') {
      this.done = true;
      return [];
    }
    const chunk = parseJson(data);
    if (!isPlainObject(chunk)) {
      return [{ type: 'error', failure: { kind: 'protocol', retryable: true, providerMessage: 'Unreadable stream frame from the provider', raw: data } }];
    }
    const out: CoreEvent[] = [];
    if (isPlainObject(chunk.error)) {
      out.push({ type: 'error', failure: { ...readOpenAiError(chunk.error), kind: 'http', retryable: true, raw: data } });
      return out;
    }
    if (!this.metaSent) {
      this.metaSent = true;
      out.push({ type: 'meta', upstreamId: stringOf(chunk.id), model: stringOf(chunk.model) });
    }
    const choice = objectOf(arrayOf(chunk.choices)[0]);
    if (this.learntFrames < MOST_LEARNT_FRAMES) this.learn(data, chunk);
    const delta = objectOf(choice?.delta) ?? textChoiceDelta(choice);
    if (delta) applyOpenAiDelta(delta, this.blocks, out);
    if (choice?.logprobs) out.push(...readOpenAiLogprobs(choice.logprobs, 0));
    const finish = stringOf(choice?.finish_reason);
    if (finish && !this.finished) {
      this.finished = true;
      this.blocks.closeAll(out);
      out.push({ type: 'finish', reason: mapFinishReason(finish), raw: finish });
    }
    const usage = objectOf(chunk.usage);
    if (usage && !this.usageSeen) {
      this.usageSeen = true;
      out.push({ type: 'usage', usage: readOpenAiUsage(usage) });
    }
    return out;
  }

  /** Learns the bytes around the text of a frame that carries nothing else (see TextFrame). */
  private learn(data: string, chunk: JsonObject): void {
    const text = onlyText(chunk);
    if (text === undefined || !plainText(text, 0, text.length)) return;
    const quoted = `"${text}"`;
    const at = data.indexOf(quoted);
    if (at < 0 || data.indexOf(quoted, at + 1) >= 0) return;
    this.learntFrames += 1;
    const frame = { before: ownText(data.slice(0, at + 1)), after: ownText(data.slice(at + quoted.length - 1)) };
    const probe = parseJson(frame.before + PROBE_TEXT + frame.after);
    if (isPlainObject(probe) && onlyText(probe) === PROBE_TEXT) this.textFrame = frame;
  }

  end(): CoreEvent[] {
    if (this.finished) return [];
    if (this.done) {
      const out: CoreEvent[] = [];
      this.blocks.closeAll(out);
      out.push({ type: 'finish', reason: 'stop', raw: null });
      return out;
    }
    return [{ type: 'error', failure: { kind: 'incomplete', retryable: true, providerMessage: INCOMPLETE_STREAM_MESSAGE } }];
  }
}

/**
 * The text of a chunk that carries a piece of text and nothing else this decoder reads: no error,
 * no usage, one choice whose delta is `content` alone, with no logprobs and no finish.
 */
function onlyText(chunk: JsonObject): string | undefined {
  if (chunk.error !== undefined || (chunk.usage !== undefined && chunk.usage !== null)) return undefined;
  const choices = arrayOf(chunk.choices);
  const choice = objectOf(choices[0]);
  if (choices.length !== 1 || !choice) return undefined;
  for (const member in choice) {
    const value = choice[member];
    if (member === 'index' ? value !== 0 : member !== 'delta' && value !== null) return undefined;
  }
  const delta = objectOf(choice.delta);
  if (!delta) return undefined;
  let text: string | undefined;
  for (const member in delta) {
    if (member !== 'content' || typeof delta.content !== 'string' || delta.content === '') return undefined;
    text = delta.content;
  }
  return text;
}

/** The text between a learnt frame's bytes, when `data` is that frame with another text. */
function textIn(data: string, frame: TextFrame): string | undefined {
  const start = frame.before.length;
  const end = data.length - frame.after.length;
  // the ends cut off and compared whole: `startsWith` on the slices the SSE reader hands over reads
  // them a character at a time (about 0.4 µs a frame against 0.07)
  if (end <= start || data.slice(0, start) !== frame.before || data.slice(end) !== frame.after) return undefined;
  return plainText(data, start, end) ? data.slice(start, end) : undefined;
}

/** A copy of `text` of its own: a slice would keep alive the whole read it was cut from, for the stream's life. */
function ownText(text: string): string {
  // UTF-16 code units out and back in: exact for any string
  return Buffer.from(text, 'utf16le').toString('utf16le');
}

/** True when `data` from `start` to `end` holds no quote, backslash or control character: a JSON string's text as written. */
function plainText(data: string, start: number, end: number): boolean {
  for (let at = start; at < end; at++) {
    const code = data.charCodeAt(at);
    if (code < 0x20 || code === 0x22 || code === 0x5c) return false;
  }
  return true;
}
