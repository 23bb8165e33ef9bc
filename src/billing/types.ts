import type { Uncollected } from './charge-cap.js';
import type { Units } from './money.js';

export interface HoldRequest {
  generationId: string;
  accountId: string;
  workspaceId: string;
  keyId: string;
  amount: Units;
}

export interface Hold extends HoldRequest {
  id: string;
  expiresAt: Date;
}

/** One recorded generation: what `GET /generation?id=` reads back. */
export interface GenerationRecord {
  id: string;
  accountId: string;
  workspaceId: string;
  keyId: string;
  /** Model that served (or, on failure, was asked). */
  model: string;
  providerSlug: string | null;
  providerName: string | null;
  endpointId: string | null;
  upstreamId: string | null;
  streamed: boolean;
  status: 'success' | 'error' | 'cancelled';
  finishReason: string | null;
  nativeFinishReason: string | null;
  errorCode: number | null;
  errorMessage: string | null;
  /** Counts as the endpoint reported them; undefined = unreported. */
  promptTokens?: number;
  completionTokens?: number;
  cachedTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
  /** Our own estimate of the prompt, used for the hold. */
  estimatedPromptTokens: number;
  /** What was charged: never more than the hold. */
  cost: Units;
  /**
   * Per price key: the quantity as reported and its amount, plus unpriced quantities. They add up to
   * `cost` plus `uncollected.amount`.
   */
  costLines: CostLine[];
  /** What the reported usage priced above the charge, and why; absent when all of it was charged. */
  uncollected?: Uncollected;
  createdAt: Date;
  /** ms from request arrival to the first content byte (streams) or to the reply. */
  latencyMs: number | null;
  /** ms from request arrival to the end of the answer. */
  generationMs: number | null;
  appTitle: string | null;
  appReferer: string | null;
  metadata: Record<string, unknown> | null;
}

export interface CostLine {
  key: string;
  quantity: string;
  /** Exact amount charged; null when the unit has no declared price (recorded unpriced). */
  amount: Units | null;
}

export interface Ledger {
  /** Reserves `amount` against the spendable balance atomically; throws 402 GatewayError when it can't. */
  hold(request: HoldRequest): Promise<Hold>;
  /**
   * Charges `record.cost`, releases the hold and writes the record, in one transaction. A cost above
   * the hold is refused (RangeError): settlement caps the charge first.
   */
  settle(hold: Hold, record: GenerationRecord): Promise<void>;
  /** Releases a hold without charging (record written when given, with cost 0). */
  release(hold: Hold, record?: GenerationRecord): Promise<void>;
  /** Writes the record of a request refused before any hold, charging nothing (one write; once per id). */
  recordRefusal(record: GenerationRecord): Promise<void>;
  /** Releases holds past their expiry; returns how many. */
  releaseExpired(now?: Date): Promise<number>;
}

export interface GenerationReader {
  /** The record, only when it belongs to `accountId`. */
  get(id: string, accountId: string): Promise<GenerationRecord | null>;
}
