/**
 * The measured figures of the endpoint listing (spec 02 "Endpoint entry", "Limits"), read through one
 * narrow view so the listing does not know how they are measured. Every figure is `null` until its
 * gate is met, never 0; beside it, the samples it was computed from: 0 when its window was scanned
 * and held none, `null` when the figure is not computed at all.
 */
export interface Percentiles {
  p50: number;
  p75: number;
  p90: number;
  p99: number;
}

export interface Gated<T> {
  value: T | null;
  samples: number | null;
}

/** Seconds a render takes: a fixed part and a part per megapixel. */
export interface RenderTiming {
  fixed_seconds: number;
  seconds_per_megapixel: number;
}

export interface MeasuredFigures {
  /** Percent of counted attempts that succeeded; null below 10 attempts. */
  uptime: { last5m: Gated<number>; last30m: Gated<number>; last1d: Gated<number>; last7d: Gated<number> };
  /** Seconds to first token of streams; null below 5 samples. */
  ttft: { last30m: Gated<Percentiles>; last1d: Gated<Percentiles> };
  /** Whole-request seconds; null below 5 samples. */
  response: { last30m: Gated<Percentiles>; last1d: Gated<Percentiles> };
  /** Completion tokens per second over streams of at least 16 completion tokens. */
  throughput: { last30m: Gated<Percentiles>; last1d: Gated<Percentiles> };
  /** Null until at least 2 sizes and 5 renders; `sizes` counts the distinct sizes seen. */
  renderTiming: Gated<RenderTiming> & { sizes: number | null };
  /** Percent of tool-call answers that were well-formed calls. */
  toolCallSuccess1d: Gated<number>;
  /** Percent of streams cut by the output ceiling without a natural stop. */
  runawayRate1d: Gated<number>;
}

export interface EndpointFigures {
  figuresOf(endpointId: string): MeasuredFigures;
}

const notComputed = <T>(): Gated<T> => ({ value: null, samples: null });

/** Every figure null and not computed. */
export const NOT_COMPUTED: MeasuredFigures = Object.freeze({
  uptime: { last5m: notComputed<number>(), last30m: notComputed<number>(), last1d: notComputed<number>(), last7d: notComputed<number>() },
  ttft: { last30m: notComputed<Percentiles>(), last1d: notComputed<Percentiles>() },
  response: { last30m: notComputed<Percentiles>(), last1d: notComputed<Percentiles>() },
  throughput: { last30m: notComputed<Percentiles>(), last1d: notComputed<Percentiles>() },
  renderTiming: { ...notComputed<RenderTiming>(), sizes: null },
  toolCallSuccess1d: notComputed<number>(),
  runawayRate1d: notComputed<number>(),
});
