import type { DDSketch } from '@datadog/sketches-js';
import type { Gated, MeasuredFigures, Percentiles } from './endpoint-figures.js';
import { SKETCH_ACCURACY, type FigureBucket } from './figure-bucket.js';
import type { WindowTotals } from './figure-windows.js';

/** Uptime (and the other percentages) are null below this many counted attempts (spec 02 "Limits"). */
export const MIN_ATTEMPTS = 10;
/** Timings and throughput are null below this many samples (spec 02 "Limits"). */
export const MIN_SAMPLES = 5;
/** Render timing is null below this many renders and picture sizes (spec 02 "Endpoint entry"). */
export const MIN_RENDERS = 5;
export const MIN_RENDER_SIZES = 2;

/**
 * The reported figures of one endpoint from its window totals, each behind its gate: null (never
 * 0) until the gate is met, with the samples beside it (0 for a window scanned empty). Percentages
 * are rounded to two decimals, seconds to the millisecond, tokens per second to two decimals; the
 * 30-minute throughput percentiles are floors: whole tokens per second at or below the measured
 * percentile, whatever the sketch's 1% error. Render timing is fitted over the day's renders once
 * they number 5 and span 2 picture sizes.
 */
export function gatedFigures(totals: WindowTotals): MeasuredFigures {
  const { last5m, last30m, last1d, last7d } = totals;
  return {
    uptime: { last5m: uptime(last5m), last30m: uptime(last30m), last1d: uptime(last1d), last7d: uptime(last7d) },
    ttft: { last30m: percentiles(last30m.ttft, seconds), last1d: percentiles(last1d.ttft, seconds) },
    response: { last30m: percentiles(last30m.response, seconds), last1d: percentiles(last1d.response, seconds) },
    throughput: { last30m: percentiles(last30m.throughput, floorRate), last1d: percentiles(last1d.throughput, rate) },
    renderTiming: renderTiming(last1d),
    toolCallSuccess1d: percent(last1d.toolCalls - last1d.toolCallFailures, last1d.toolCalls),
    runawayRate1d: percent(last1d.runaways, last1d.streams),
  };
}

function renderTiming(bucket: FigureBucket): MeasuredFigures['renderTiming'] {
  const renders = bucket.renders;
  const samples = renders?.renders ?? 0;
  const sizes = renders?.sizes.size ?? 0;
  const value = renders && samples >= MIN_RENDERS && sizes >= MIN_RENDER_SIZES ? renders.fit() : null;
  return { value, samples, sizes };
}

function uptime(bucket: FigureBucket): Gated<number> {
  return percent(bucket.attempts - bucket.failures, bucket.attempts);
}

function percent(part: number, whole: number): Gated<number> {
  return { value: whole >= MIN_ATTEMPTS ? round((100 * part) / whole, 100) : null, samples: whole };
}

function percentiles(sketch: DDSketch | undefined, present: (value: number) => number): Gated<Percentiles> {
  const samples = sketch?.count ?? 0;
  if (!sketch || samples < MIN_SAMPLES) return { value: null, samples };
  const at = (quantile: number) => present(sketch.getValueAtQuantile(quantile));
  return { value: { p50: at(0.5), p75: at(0.75), p90: at(0.9), p99: at(0.99) }, samples };
}

const seconds = (value: number) => round(value, 1000);
const rate = (value: number) => round(value, 100);
/** The sketch's value is within 1% of the true percentile, so dividing by 1.01 never overstates it. */
const floorRate = (value: number) => Math.floor(value / (1 + SKETCH_ACCURACY));

function round(value: number, scale: number): number {
  return Math.round(value * scale) / scale;
}
