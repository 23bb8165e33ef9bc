import type { CoreUsage } from '../../core/events.js';

/** What every reply states about who answered. */
export interface ReplyMeta {
  /** The generation id. */
  id: string;
  /** Unix seconds. */
  created: number;
  /** Marketplace id of the model that served. */
  model: string;
  /** Display name of the serving provider. */
  provider: string;
}

/** The settled outcome a reply reports: counts as reported and the exact charge. */
export interface ReplyAccounting {
  usage: CoreUsage | undefined;
  /** Exact charge in USD, rendered from units by billing. */
  cost: number;
  /** Which judged members the serving endpoint honoured (final stream chunks). */
  honoured?: Record<string, boolean>;
}
