import type { CollectedReply } from '../../core/collect.js';
import type { CoreEvent } from '../../core/events.js';
import type { GatewayError } from '../../core/errors.js';
import type { CoreRequest } from '../../core/request.js';
import type { ReplyAccounting, ReplyMeta } from './reply-meta.js';

/** A dialect's stream writer: core events in, SSE text out. */
export interface DialectStreamWriter {
  /** Text that opens the stream when it commits (e.g. `message_start`); may be empty. */
  open(): string;
  write(event: CoreEvent): string;
  finish(accounting: ReplyAccounting): string;
  /** The terminal in-band failure after the stream opened. */
  fail(error: GatewayError): string;
}

/** What the shared inference runner needs from a dialect's encoder. */
export interface DialectBinding {
  encodeReply(reply: CollectedReply, meta: ReplyMeta, accounting: ReplyAccounting, request: CoreRequest): unknown;
  createStreamWriter(meta: ReplyMeta, request: CoreRequest): DialectStreamWriter;
  /**
   * The body of an HTTP refusal of a streamed request before its stream opened, where the dialect
   * has its own envelope; undefined keeps the shared envelope.
   */
  streamRefusalBody?(error: GatewayError): unknown;
  /** The body of every error the dialect's route answers, streamed or not, where it has its own envelope. */
  errorBody?(error: GatewayError): unknown;
  /**
   * An answer part the dialect cannot carry: the reply is refused with this error (a whole reply
   * answers with it; a stream ends with it in-band). Undefined when every part can be carried.
   */
  refuseOutput?(event: CoreEvent): GatewayError | undefined;
}
