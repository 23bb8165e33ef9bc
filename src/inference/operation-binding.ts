import type { OperationUsage } from '../billing/operation-pricing.js';
import type { DecodedOperation } from '../core/operation.js';
import type { ReplyMeta } from '../dialects/shared/reply-meta.js';
import type { HeaderBag } from '../dialects/shared/request-headers.js';
import type { OperationAdapterLookup } from '../upstream/operation-adapter.js';

/** What the shared runner needs from one non-conversation operation (embeddings, rerank). */
export interface OperationBinding<Body, Ask, Result> {
  decode(body: Body, headers: HeaderBag): DecodedOperation<Ask>;
  /** The adapter for an attempt's wire format, or undefined when it cannot serve the operation. */
  adapters: OperationAdapterLookup<Ask, Result>;
  /** The units the result reports, for billing. */
  usage(result: Result): OperationUsage;
  upstreamId(result: Result): string | undefined;
  /** The JSON reply; `cost` is the settled charge in USD. */
  encode(result: Result, meta: ReplyMeta, ask: Ask, cost: number): unknown;
}
