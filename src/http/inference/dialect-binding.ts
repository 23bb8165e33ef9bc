import type { CollectedReply } from '../../core/collect.js';
import type { CoreEvent } from '../../core/events.js';
import type { GatewayError } from '../../core/errors.js';
import type { ReplyAccounting, ReplyMeta } from '../../dialects/shared/reply-meta.js';

/** A dialect's stream writer: core events in, SSE text out. */
export interface DialectStreamWriter {
  write(event: CoreEvent): string;
  finish(accounting: ReplyAccounting): string;
  fail(error: GatewayError): string;
}

/** What the shared inference runner needs from a dialect's encoder. */
export interface DialectBinding {
  encodeReply(reply: CollectedReply, meta: ReplyMeta, accounting: ReplyAccounting): unknown;
  createStreamWriter(meta: ReplyMeta): DialectStreamWriter;
}
