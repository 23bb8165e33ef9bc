/** What one counted request learns: whether it may proceed, and what the rate-limit headers say. */
export interface WindowVerdict {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Unix seconds when a slot frees up at the latest. */
  resetAt: number;
  /** Seconds to wait before retrying, when refused. */
  retryAfter: number;
}

/**
 * A request counter per identity over a sliding window. In memory for one instance; a fleet hands
 * in a shared implementation, so `take` is asynchronous.
 */
export interface RateLimiter {
  readonly limit: number;
  /** Counts one request for `identity` unless it would exceed the limit. */
  take(identity: string): Promise<WindowVerdict>;
}
