/** Throughput and latency percentiles of one measured run. */

/**
 * The value below which `fraction` of the sorted samples fall (nearest rank).
 * @param {Float64Array} sorted ascending
 * @param {number} fraction 0..1
 */
export function percentile(sorted, fraction) {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil(fraction * sorted.length) - 1));
  return sorted[rank];
}

/**
 * @param {number[]} samples milliseconds, one per successful request
 * @param {number} seconds length of the measured window
 * @returns {{ count: number, rps: number, p50: number, p99: number }}
 */
export function summarizeLatencies(samples, seconds) {
  const sorted = Float64Array.from(samples).sort();
  return {
    count: sorted.length,
    rps: sorted.length / seconds,
    p50: percentile(sorted, 0.5),
    p99: percentile(sorted, 0.99),
  };
}
