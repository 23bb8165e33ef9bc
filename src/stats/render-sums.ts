import type { RenderTiming } from './endpoint-figures.js';

/** One render: the megapixels of the pictures delivered, the seconds the call took, their sizes (`WxH`). */
export interface RenderSample {
  megapixels: number;
  seconds: number;
  sizes: readonly string[];
}

interface Encoded {
  n: number;
  x: number;
  y: number;
  xx: number;
  xy: number;
  sizes: string[];
}

/**
 * The renders of an endpoint over a span of time, as the sums a least-squares line of seconds on
 * megapixels is fitted from, and the picture sizes seen. Sums of other minutes or instances add up.
 */
export class RenderSums {
  renders = 0;
  #x = 0;
  #y = 0;
  #xx = 0;
  #xy = 0;
  readonly sizes = new Set<string>();

  add(sample: RenderSample): void {
    this.renders += 1;
    this.#x += sample.megapixels;
    this.#y += sample.seconds;
    this.#xx += sample.megapixels * sample.megapixels;
    this.#xy += sample.megapixels * sample.seconds;
    for (const size of sample.sizes) this.sizes.add(size);
  }

  merge(other: RenderSums): void {
    this.renders += other.renders;
    this.#x += other.#x;
    this.#y += other.#y;
    this.#xx += other.#xx;
    this.#xy += other.#xy;
    for (const size of other.sizes) this.sizes.add(size);
  }

  /**
   * Seconds a render takes as a fixed part plus a part per megapixel, fitted by least squares and
   * held non-negative (a slope at or below zero is no slope: every render takes the mean; an
   * intercept below zero is none: the line through the origin); null while the renders span no
   * range of megapixels.
   */
  fit(): RenderTiming | null {
    const n = this.renders;
    const spread = n * this.#xx - this.#x * this.#x;
    if (n < 2 || spread <= 1e-12 * Math.max(1, this.#xx * n)) return null;
    let slope = (n * this.#xy - this.#x * this.#y) / spread;
    let fixed = (this.#y - slope * this.#x) / n;
    if (slope <= 0) {
      slope = 0;
      fixed = this.#y / n;
    } else if (fixed < 0) {
      fixed = 0;
      slope = this.#xy / this.#xx;
    }
    return { fixed_seconds: Math.round(fixed * 1000) / 1000, seconds_per_megapixel: Math.round(slope * 1000) / 1000 };
  }

  encode(): string {
    const encoded: Encoded = { n: this.renders, x: this.#x, y: this.#y, xx: this.#xx, xy: this.#xy, sizes: [...this.sizes] };
    return JSON.stringify(encoded);
  }

  /** The sums stored as `encode` wrote them; undefined for null or anything else. */
  static decode(text: string | null): RenderSums | undefined {
    if (text === null) return undefined;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      return undefined;
    }
    if (!isEncoded(parsed)) return undefined;
    const sums = new RenderSums();
    sums.renders = parsed.n;
    sums.#x = parsed.x;
    sums.#y = parsed.y;
    sums.#xx = parsed.xx;
    sums.#xy = parsed.xy;
    for (const size of parsed.sizes) sums.sizes.add(size);
    return sums;
  }
}

function isEncoded(value: unknown): value is Encoded {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return ['n', 'x', 'y', 'xx', 'xy'].every((key) => typeof record[key] === 'number' && Number.isFinite(record[key]))
    && Array.isArray(record.sizes) && record.sizes.every((size) => typeof size === 'string');
}
