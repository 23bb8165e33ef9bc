/**
 * A small seeded generator (mulberry32), so a failing run replays exactly: every file prints its
 * seed, and `RELIABILITY_SEED=<seed>` runs it again with the same one.
 */
export class SeededRandom {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** An integer in [low, high], both included. */
  int(low: number, high: number): number {
    return low + Math.floor(this.next() * (high - low + 1));
  }

  chance(probability: number): boolean {
    return this.next() < probability;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new RangeError('pick from an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** A generator of its own, seeded from this one, so one part's draws do not shift another's. */
  fork(): SeededRandom {
    return new SeededRandom(Math.floor(this.next() * 4_294_967_296));
  }
}

/**
 * The seed of a suite: `RELIABILITY_SEED` when set (a replay), else a fresh one. Printed either
 * way, with the line that replays it.
 */
export function suiteSeed(suite: string): SeededRandom {
  const given = process.env.RELIABILITY_SEED;
  const seed = given !== undefined && /^\d+$/.test(given) ? Number(given) >>> 0 : Math.floor(Math.random() * 4_294_967_296);
  console.info(`${suite}: seed ${seed} (replay with RELIABILITY_SEED=${seed})`);
  return new SeededRandom(seed);
}

/** The same generator as a bare function of draws in [0, 1). */
export function seededRandom(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}
