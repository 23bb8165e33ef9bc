import type { CollectedReply } from '../../core/collect.js';
import type { CoreRequest } from '../../core/request.js';
import type { ReplyAccounting, ReplyMeta } from '../shared/reply-meta.js';
import { outputItems } from './output-items.js';
import { encodeResponsesUsage, responseIds, responseObject, statusOf } from './response-object.js';

/** The `response` object for a whole reply: `completed`, or `incomplete` when the ceiling ended it. */
export function encodeResponsesReply(reply: CollectedReply, meta: ReplyMeta, accounting: ReplyAccounting, request: CoreRequest): Record<string, unknown> {
  const status = statusOf(reply.finish);
  return responseObject(meta, {
    status,
    output: outputItems(reply, responseIds(meta.id), status, request.toolOrigins),
    usage: encodeResponsesUsage(accounting.usage),
  });
}
