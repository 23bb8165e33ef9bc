import type { ServerResponse } from 'node:http';
import { sseComment } from '../../dialects/shared/sse.js';
import { drained } from './drained.js';

/**
 * The raw response of a committed stream: opens it once with the SSE headers, writes frames with
 * back-pressure, and sends a keep-alive comment whenever nothing was written for `keepAliveMs`.
 */
export class SseSocket {
  private opened = false;
  private lastWriteAt = 0;
  private timer: NodeJS.Timeout | undefined;

  /** `headers`, the reply's headers so far, become the socket's: `open` completes them in place. */
  constructor(
    private readonly response: ServerResponse,
    private readonly headers: Record<string, string>,
    private readonly keepAliveMs: number,
  ) {}

  get isOpen(): boolean {
    return this.opened;
  }

  get isClosed(): boolean {
    return this.response.destroyed || this.response.writableEnded;
  }

  /** Starts keep-alives now: the stream opens with a comment if nothing commits in time. */
  startKeepAlive(): void {
    this.lastWriteAt = Date.now();
    this.timer = setInterval(() => {
      if (Date.now() - this.lastWriteAt >= this.keepAliveMs) void this.write(sseComment('keep-alive'));
    }, Math.max(10, Math.floor(this.keepAliveMs / 3)));
    this.timer.unref();
  }

  open(extraHeaders: Record<string, string> = {}): void {
    if (this.opened) return;
    this.opened = true;
    // completed in place: spread into a new object with the stream's own, they cost about 5 µs more
    const headers = Object.assign(this.headers, extraHeaders);
    headers['content-type'] = 'text/event-stream; charset=utf-8';
    headers['cache-control'] = 'no-cache';
    headers['x-accel-buffering'] = 'no';
    this.response.writeHead(200, headers);
  }

  /**
   * Writes text, opening the stream if needed. While the socket can take more, nothing to wait for
   * (no promise a frame); otherwise a promise resolved once it can.
   */
  write(text: string): Promise<void> | undefined {
    if (text.length === 0 || this.isClosed) return undefined;
    this.open();
    this.lastWriteAt = Date.now();
    // node:http corks the socket for the rest of the tick: what is written together leaves in one system call
    return this.response.write(text) ? undefined : drained(this.response);
  }

  end(text = ''): void {
    this.stop();
    if (this.isClosed) return;
    this.open();
    this.response.end(text);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
