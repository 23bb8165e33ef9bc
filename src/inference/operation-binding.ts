import type { CostResult } from '../billing/pricing.js';
import type { GenerationOutcome } from '../billing/settlement.js';
import type { EndpointPricing } from '../catalogue/types.js';
import type { GatewayError } from '../core/errors.js';
import type { DecodedOperation } from '../core/decoded-operation.js';
import type { CoreUsage } from '../core/events.js';
import type { Plan } from '../core/plan.js';
import type { ReplyMeta } from '../dialects/shared/reply-meta.js';
import type { RenderSample } from '../stats/render-sums.js';
import type { Answer, InferenceExecutor } from './executor.js';
import type { PrepareOptions } from './prepare.js';

/** What the operation path needs from one call answered by one whole reply (embeddings, rerank, typed decisions, images, transcription). */
export interface OperationBinding<Ask, Result> {
  /**
   * Reads what routing and the hold need from the call's media before it is planned (a recording's
   * seconds), completing the decoded ask and route in place; refuses media that cannot be read.
   */
  measure?(decoded: DecodedOperation<Ask>): Promise<void>;
  /** How the request is held and recorded, where not as one chat call. */
  prepareOptions?(ask: Ask): PrepareOptions;
  /** Runs the plan, failing over before an answer, and hands back the answering attempt's result. */
  execute(executor: InferenceExecutor, ask: Ask, plan: Plan, signal: AbortSignal): Promise<Answer<Result>>;
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
}
