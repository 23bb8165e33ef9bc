import type { WholeReply } from './reply.js';

/**
 * Where a streamed answer is written as it is produced: the HTTP response (http/inference/write-stream.ts)
 * or a `RecordedStream`. The pipeline calls it synchronously, each upstream read's text in one write.
 */
export interface StreamOutput {
  /** The answer committed: open the stream (status 200) with these headers. */
  open(headers: Record<string, string>): void;
  /** Event-stream text, in order. Nothing answered while the output takes more; else a promise resolved once it does. */
  write(text: string): Promise<void> | undefined;
  /**
   * No endpoint answered: `reply` is the HTTP answer while nothing was written, `inBand` the
   * stream's own ending once something (a keep-alive) was.
   */
  refuse(reply: WholeReply, inBand: string): void;
}

/** What a stream's output was given, in order. */
export type StreamPart =
  | { type: 'open'; headers: Record<string, string> }
  | { type: 'text'; text: string }
  | { type: 'refused'; reply: WholeReply; inBand: string };

/** A stream's output kept as the parts written, for a caller with no socket (the prober); `onPart` sees each as it comes. */
export class RecordedStream implements StreamOutput {
  readonly parts: StreamPart[] = [];

  constructor(private readonly onPart?: (part: StreamPart) => Promise<void> | undefined) {}

  open(headers: Record<string, string>): void {
    void this.#add({ type: 'open', headers });
  }

  write(text: string): Promise<void> | undefined {
    return text.length > 0 ? this.#add({ type: 'text', text }) : undefined;
  }

  refuse(reply: WholeReply, inBand: string): void {
    void this.#add({ type: 'refused', reply, inBand });
  }

  #add(part: StreamPart): Promise<void> | undefined {
    this.parts.push(part);
    return this.onPart?.(part);
  }
}
