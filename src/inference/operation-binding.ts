import type { CostResult } from '../billing/pricing.js';
import type { GenerationOutcome } from '../billing/settlement.js';
import type { EndpointPricing } from '../catalogue/types.js';
import type { AbortLike } from '../core/abort.js';
import type { GatewayError } from '../core/errors.js';
import type { DecodedOperation } from '../core/decoded-operation.js';
import type { CoreUsage } from '../core/events.js';
import type { Plan } from '../core/plan.js';
import type { ReplyMeta } from '../dialects/shared/reply-meta.js';
import type { RenderSample } from '../stats/render-sums.js';
import type { OperationStreamEvent } from '../upstream/operation-adapter.js';
import type { Answer, InferenceExecutor } from './executor.js';
import type { PrepareOptions } from './prepare.js';

/** What the operation path needs from one call answered by one whole reply (embeddings, rerank, typed decisions, images, transcription). */
export interface OperationBinding<Ask, Result, Piece = never> {
  /**
   * Reads what routing and the hold need from the call's media before it is planned (a recording's
   * seconds), completing the decoded ask and route in place; refuses media that cannot be read.
   */
  measure?(decoded: DecodedOperation<Ask>): Promise<void>;
  /** How the request is held and recorded, where not as one chat call. */
  prepareOptions?(ask: Ask): PrepareOptions;
  /** Runs the plan, failing over before an answer, and hands back the answering attempt's result. */
  execute(executor: InferenceExecutor, ask: Ask, plan: Plan, signal: AbortLike): Promise<Answer<Result>>;
  /** What the generation record keeps of the result: counts as reported, the upstream id, the finish. */
  recorded(result: Result, ask: Ask): { usage?: CoreUsage; upstreamId?: string; finishReason: string | null };
  /** The exact charge at the serving endpoint's prices. */
  price(pricing: EndpointPricing, result: Result, outcome: GenerationOutcome, now: Date, ask: Ask): CostResult;
  /** What a delivered result rendered, for the endpoint's render timing (image generation). */
  rendered?(result: Result): Omit<RenderSample, 'seconds'> | undefined;
  /** A result that is neither delivered nor charged (recorded with its counts), as the caller's error. */
  refuse?(result: Result, meta: ReplyMeta): GatewayError | undefined;
  /** The JSON reply; `cost` is the settled charge in USD. */
  encode(result: Result, meta: ReplyMeta, ask: Ask, cost: number): unknown;
  /** Present where the call may be answered as an event stream (image generation with `stream`). */
  stream?: OperationStreamBinding<Ask, Result, Piece>;
}

/** A call answered as an event stream: the pieces as they come (partial pictures), then the result once settled. */
export interface OperationStreamBinding<Ask, Result, Piece> {
  /** Whether this ask is answered as a stream. */
  streamed(ask: Ask): boolean;
  execute(executor: InferenceExecutor, ask: Ask, plan: Plan, signal: AbortLike): Promise<Answer<AsyncGenerator<OperationStreamEvent<Result, Piece>>>>;
  /** A result the stream cannot deliver, in place of the binding's own refusal. */
  refuse?(result: Result, meta: ReplyMeta): GatewayError | undefined;
  /** The event-stream text of one piece. */
  piece(piece: Piece, meta: ReplyMeta, ask: Ask): string;
  /** The event-stream text of the result with its settled charge, ending the stream. */
  result(result: Result, meta: ReplyMeta, ask: Ask, cost: number): string;
  /** The event-stream text of a failure, ending the stream. */
  fail(error: GatewayError): string;
}
