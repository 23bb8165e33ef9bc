import type { RateLimiter } from './rate-limiter.js';

/** A limiter that tells `onRefused` of every request it refuses (the metrics count them by limit). */
export function meteredLimiter(limiter: RateLimiter, onRefused: () => void): RateLimiter {
  return {
    get limit() {
      return limiter.limit;
    },
    async take(identity) {
      const verdict = await limiter.take(identity);
      if (!verdict.allowed) onRefused();
      return verdict;
    },
  };
}
