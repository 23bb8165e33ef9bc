import { DEFAULT_CHECKPOINT_CADENCE } from '../billing/generation-checkpoints.js';
import type { CheckpointCadence } from '../billing/types.js';

/** How an instance shows it is alive, how soon others give up on it, and how streams checkpoint. */
export interface RecoverySettings {
  /** Interval of this instance's heartbeat. */
  heartbeatMs: number;
  /**
   * An instance whose heartbeat is older than this is gone and its pending generations are settled
   * by whoever notices first; several heartbeats, so a busy instance is not taken for dead. Clocks
   * of instances sharing a database must agree to well within it.
   */
  staleAfterMs: number;
  /** How often gone instances are looked for (also once at start-up). */
  reapIntervalMs: number;
  checkpoint: CheckpointCadence;
  /** How long an instance's claim on an account's batches lasts unrenewed: another takes the account over after it. */
  batchLeaseMs: number;
  /** How often the batch runner looks for accounts to take and renews its claims. */
  batchPollMs: number;
}

export const DEFAULT_RECOVERY_SETTINGS: RecoverySettings = {
  heartbeatMs: 5_000,
  staleAfterMs: 20_000,
  reapIntervalMs: 5_000,
  checkpoint: DEFAULT_CHECKPOINT_CADENCE,
  batchLeaseMs: 30_000,
  batchPollMs: 1_000,
};
