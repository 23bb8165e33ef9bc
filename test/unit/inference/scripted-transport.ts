import type { UpstreamRequest } from '../../../src/upstream/types.js';
import type { UpstreamResponse, UpstreamTransport } from '../../../src/upstream/transport.js';

/**
 * One piece of a scripted body: bytes (text is UTF-8 encoded), a read that fails, or a read that
 * waits until the request's signal aborts and then fails as undici's does.
 */
export type BodyStep = string | Uint8Array | { fail: Error } | { hang: true };

/** What one upstream call answers. */
export type ScriptedReply =
  /** The request never gets headers: the transport throws this. */
  | { throws: Error }
  /** No headers until the signal aborts. */
  | { hang: true }
  | { status?: number; headers?: Record<string, string>; body?: BodyStep[] };

/** How a scripted body ended, as far as the executor's reading of it goes. */
export type BodyEnd = 'open' | 'finished' | 'failed' | 'aborted' | 'released' | 'destroyed';

export interface SentRequest {
  baseUrl: string;
  upstream: UpstreamRequest;
  /** How the body of this call's reply ended (`open` while still being read or never read). */
  body: { end: BodyEnd };
}

/**
 * A fake transport: replies are scripted per base URL (each call takes the next reply of its URL;
 * the last one repeats), every call is kept in order, and the request's signal is honoured the way
 * undici honours it: a pending send or body read fails with an AbortError.
 */
export class ScriptedTransport implements UpstreamTransport {
  readonly sent: SentRequest[] = [];
  private readonly scripts = new Map<string, ScriptedReply[]>();
  private readonly waiters: Array<() => void> = [];

  script(baseUrl: string, ...replies: ScriptedReply[]): this {
    this.scripts.set(baseUrl, replies);
    return this;
  }

  /** Base URLs in the order they were called. */
  get calledUrls(): string[] {
    return this.sent.map((entry) => entry.baseUrl);
  }

  /** Resolves once `count` calls were sent. */
  async sentCount(count: number): Promise<void> {
    while (this.sent.length < count) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }

  async send(baseUrl: string, upstream: UpstreamRequest, signal: AbortSignal): Promise<UpstreamResponse> {
    const queue = this.scripts.get(baseUrl);
    const reply = queue && queue.length > 1 ? queue.shift() : queue?.[0];
    const state: { end: BodyEnd } = { end: 'open' };
    this.sent.push({ baseUrl, upstream, body: state });
    for (const wake of this.waiters.splice(0)) wake();
    if (!reply) throw new Error(`no reply scripted for ${baseUrl}`);
    if ('throws' in reply) throw reply.throws;
    if ('hang' in reply) {
      await untilAborted(signal);
      throw abortError();
    }
    return { status: reply.status ?? 200, headers: reply.headers ?? {}, body: scriptedBody(reply.body ?? [], signal, state) };
  }
}

function abortError(): Error {
  return new DOMException('This operation was aborted', 'AbortError');
}

function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) resolve();
    else signal.addEventListener('abort', () => resolve(), { once: true });
  });
}

function scriptedBody(steps: readonly BodyStep[], signal: AbortSignal, state: { end: BodyEnd }): UpstreamResponse['body'] {
  const encoder = new TextEncoder();
  let destroyed = false;
  async function* read(): AsyncGenerator<Uint8Array> {
    let finished = false;
    try {
      for (const step of steps) {
        if (destroyed) throw new Error('body destroyed');
        if (typeof step === 'string') yield encoder.encode(step);
        else if (step instanceof Uint8Array) yield step;
        else if ('fail' in step) {
          state.end = 'failed';
          throw step.fail;
        } else {
          await untilAborted(signal);
          state.end = 'aborted';
          throw abortError();
        }
      }
      finished = true;
      state.end = 'finished';
    } finally {
      if (!finished && state.end === 'open') state.end = destroyed ? 'destroyed' : 'released';
    }
  }
  const iterator = read();
  const text = async (): Promise<string> => {
    const decoder = new TextDecoder();
    let out = '';
    for await (const bytes of iterator) out += decoder.decode(bytes, { stream: true });
    return out + decoder.decode();
  };
  return {
    [Symbol.asyncIterator]: () => iterator,
    text,
    json: async () => JSON.parse(await text()) as unknown,
    destroy() {
      destroyed = true;
      if (state.end === 'open') state.end = 'destroyed';
      void iterator.return(undefined);
    },
  };
}

/** An SSE body of `data:` frames (objects are sent as JSON), ending with `[DONE]` unless told otherwise. */
export function sse(frames: readonly (object | string)[], options: { done?: boolean } = {}): string {
  const lines = frames.map((frame) => `data: ${typeof frame === 'string' ? frame : JSON.stringify(frame)}\n\n`);
  if (options.done !== false) lines.push('data: [DONE]\n\n');
  return lines.join('');
}

/** OpenAI-compatible stream chunks. */
export const chunk = {
  text: (text: string) => ({ id: 'up-1', model: 'm', choices: [{ index: 0, delta: { content: text }, finish_reason: null }] }),
  role: () => ({ id: 'up-1', model: 'm', choices: [{ index: 0, delta: { role: 'assistant' }, finish_reason: null }] }),
  tool: (name: string, args = '{}') => ({
    id: 'up-1',
    model: 'm',
    choices: [{ index: 0, delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: args } }] }, finish_reason: null }],
  }),
  finish: (reason = 'stop') => ({ id: 'up-1', model: 'm', choices: [{ index: 0, delta: {}, finish_reason: reason }] }),
  usage: (prompt: number, completion: number) => ({ id: 'up-1', model: 'm', choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion } }),
  error: (message: string) => ({ error: { message, code: 'server_error' } }),
};

/** A whole OpenAI-compatible chat reply carrying `message`. */
export function chatReply(message: Record<string, unknown>, finish = 'stop'): string {
  return JSON.stringify({
    id: 'up-1',
    model: 'm',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage: { prompt_tokens: 5, completion_tokens: 2 },
  });
}
