import type { Redis } from 'ioredis';
import { randomHex } from '../core/random-hex.js';
import type { RateLimiter, WindowVerdict } from './rate-limiter.js';
import { SlidingWindowLimiter } from './sliding-window.js';

/**
 * One take of the shared sliding window, atomic in Redis: the identity's sorted set holds the times
 * of its counted requests (scored by the server's clock, so instances whose clocks differ still
 * agree); those that left the window are dropped, and the request is counted only while fewer than
 * the limit remain. Answers {allowed, used before this request, the score that frees a slot (or the
 * oldest counted), now}.
 */
const SLIDING_WINDOW = `
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local window = tonumber(ARGV[1])
local limit = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local used = redis.call('ZCARD', KEYS[1])
if used >= limit then
  local freeing = redis.call('ZRANGE', KEYS[1], used - limit, used - limit, 'WITHSCORES')
  return {0, used, freeing[2] or tostring(now), now}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('PEXPIRE', KEYS[1], window)
local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return {1, used, oldest[2] or tostring(now), now}
`;

type Reply = [number, number, string, number];

interface SlidingWindowCommand {
  slidingWindow(key: string, windowMs: number, limit: number, member: string): Promise<Reply>;
}

export interface RedisLimiterOptions {
  /** Names this limiter's keys (`key`, `address`): two limiters never share one. */
  name: string;
  limit: number;
  windowMs?: number;
  /** How many live instances share the limit: while Redis cannot be reached each allows limit ÷ this. */
  instances: () => number;
  /** Told when the shared window is lost (true) or back (false), once per change. */
  onFallback?: (falling: boolean) => void;
}

/**
 * The request rate per identity, exact across every instance sharing one Redis: one script per
 * take (EVALSHA, sent again whole when Redis lost its script cache, so a restart of Redis is never
 * an error). While Redis cannot be reached the instance counts on its own, at limit ÷ N with N the
 * live instances, so the fleet together stays within the limit; it returns to the shared window as
 * soon as Redis answers again.
 */
export class RedisLimiter implements RateLimiter {
  readonly #redis: Redis & SlidingWindowCommand;
  readonly #name: string;
  readonly #windowMs: number;
  readonly #instances: () => number;
  readonly #onFallback: (falling: boolean) => void;
  readonly #local: SlidingWindowLimiter;
  readonly #member = randomHex(6);
  #limit: number;
  #sequence = 0;
  #falling = false;

  constructor(redis: Redis, options: RedisLimiterOptions) {
    if (!('slidingWindow' in redis)) redis.defineCommand('slidingWindow', { numberOfKeys: 1, lua: SLIDING_WINDOW });
    this.#redis = redis as Redis & SlidingWindowCommand;
    this.#name = options.name;
    this.#limit = options.limit;
    this.#windowMs = options.windowMs ?? 60_000;
    this.#instances = options.instances;
    this.#onFallback = options.onFallback ?? (() => undefined);
    this.#local = new SlidingWindowLimiter(this.#fallbackLimit(), this.#windowMs);
  }

  get limit(): number {
    return this.#limit;
  }

  /** Whether this instance counts on its own now (Redis unreachable). */
  get fallingBack(): boolean {
    return this.#falling;
  }

  setLimit(limit: number): void {
    this.#limit = limit;
    this.#local.setLimit(this.#fallbackLimit());
  }

  async take(identity: string): Promise<WindowVerdict> {
    if (this.#redis.status !== 'ready') return this.#takeLocally(identity);
    let reply: Reply;
    try {
      this.#sequence += 1;
      reply = await this.#redis.slidingWindow(`switchyard:rate:${this.#name}:${identity}`, this.#windowMs, this.#limit, `${this.#member}:${this.#sequence}`);
    } catch {
      return this.#takeLocally(identity);
    }
    this.#fall(false);
    const [allowed, used, score, now] = reply;
    const at = Number(score) + this.#windowMs;
    if (allowed === 1) return { allowed: true, limit: this.#limit, remaining: this.#limit - used - 1, resetAt: Math.ceil(at / 1000), retryAfter: 0 };
    return { allowed: false, limit: this.#limit, remaining: 0, resetAt: Math.ceil(at / 1000), retryAfter: Math.max(1, Math.ceil((at - now) / 1000)) };
  }

  #takeLocally(identity: string): WindowVerdict {
    this.#fall(true);
    this.#local.setLimit(this.#fallbackLimit());
    // the headers still speak of the limit the caller has, here the instance's share of it
    return this.#local.takeNow(identity);
  }

  #fallbackLimit(): number {
    return Math.max(1, Math.floor(this.#limit / Math.max(1, this.#instances())));
  }

  #fall(falling: boolean): void {
    if (falling === this.#falling) return;
    this.#falling = falling;
    this.#onFallback(falling);
  }
}
