import type { Uncollected } from './charge-cap.js';
import type { ScopeLimits } from '../accounts/types.js';
import type { Units } from './money.js';

export interface HoldRequest {
  generationId: string;
  accountId: string;
  workspaceId: string;
  keyId: string;
  amount: Units;
  /** The spend limits of the key, its workspace and its account to hold against; none when absent. */
  limits?: ScopeLimits;
  /**
   * The generation as admitted (status `pending`, cost 0), written with the hold in its transaction
   * so that its id reads back at once; settling the hold turns it into the final record.
   */
  pending: GenerationRecord;
}

export interface Hold extends HoldRequest {
  id: string;
  /** When it was taken: its charge counts in the spend-limit windows holding this instant, as the hold did. */
  heldAt: Date;
  expiresAt: Date;
}

export const GENERATION_STATUSES = ['pending', 'success', 'error', 'cancelled'] as const;

export type GenerationStatus = (typeof GENERATION_STATUSES)[number];

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
  /**
   * `pending` while admitted and not yet settled: its cost is 0 and its counts are those of the
   * last checkpoint of its stream, if any. The other three are final.
   */
  status: GenerationStatus;
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
   * Charges `record.cost`, releases the hold and turns the pending generation into `record`, in one
   * transaction. A cost above the hold is refused (RangeError): settlement caps the charge first.
   * Only the first settlement of a generation charges: one already settled (by its stream, or after a
   * crash by the recovery of its instance) is left as it is.
   */
  settle(hold: Hold, record: GenerationRecord): Promise<void>;
  /**
   * Releases a hold without charging: the pending generation becomes `record` with cost 0, or,
   * without one, an error of the service (500) costing nothing.
   */
  release(hold: Hold, record?: GenerationRecord): Promise<void>;
  /** Writes the record of a request refused before any hold, charging nothing (one write; once per id). */
  recordRefusal(record: GenerationRecord): Promise<void>;
  /** Releases holds past their expiry; returns how many. */
  releaseExpired(now?: Date): Promise<number>;
  /**
   * What the holds this process keeps in memory reserve of the account's balance (SQLite, see
   * process-holds.ts); absent where holds are kept in the database, in `reserved_units`.
   */
  reservedInProcess?(accountId: string): Units;
}

/** What a stream had delivered when it was last checkpointed. */
export interface DeliveredSoFar {
  /** The endpoint serving the answer. */
  endpointId: string;
  /** Output produced so far (text, reasoning, tool calls), counted with the prompt tokenizer. */
  completionTokens: number;
  /** The prompt as the endpoint reported it, once a usage event came. */
  promptTokens?: number;
}

/**
 * Where a running stream records what it delivered, so that a crash loses at most the output
 * since its last checkpoint. A stream never waits for a checkpoint, and recording never fails:
 * one that cannot be written is logged and the next one carries the counts.
 */
export interface GenerationCheckpoints {
  /** How often a stream checkpoints: once both this many tokens and this many ms have passed since the last. */
  readonly cadence: CheckpointCadence;
  /** Resolves once the checkpoint is written (or its failure logged); never rejects. */
  record(generationId: string, delivered: DeliveredSoFar): Promise<void>;
  /**
   * The stream of `hold` committed at `endpointId`: its first checkpoint, with nothing delivered yet.
   * Where the pending generation is not stored (a hold kept in process memory), it is written now,
   * stamped with the instance and the hold, so a crash from here on is settled from its checkpoints.
   * Resolves once written (or its failure logged); never rejects.
   */
  committed(hold: Hold, endpointId: string): Promise<void>;
}

export interface CheckpointCadence {
  tokens: number;
  intervalMs: number;
}

export interface GenerationReader {
  /** The record, only when it belongs to `accountId`. */
  get(id: string, accountId: string): Promise<GenerationRecord | null>;
}
