/** One endpoint's overruns since the process started: answers that priced above the charge they were held for. */
export interface EndpointOverruns {
  endpointId: string;
  /** Settlements whose charge was cut. */
  count: number;
  /** What went uncollected, summed, in 10^-24 USD. */
  uncollectedUnits: bigint;
}

/**
 * Counts, per endpoint, the answers whose reported usage priced above what was charged (output past
 * the held ceiling, a prompt counted above the estimate), so an operator sees which providers
 * overrun. Monotonic, in memory; read by the metrics exposition.
 */
export interface OverrunCounter {
  record(endpointId: string, uncollectedUnits: bigint): void;
  /** Every endpoint that overran, ordered by endpoint id. */
  read(): EndpointOverruns[];
}

export class MemoryOverrunCounter implements OverrunCounter {
  private readonly byEndpoint = new Map<string, EndpointOverruns>();

  record(endpointId: string, uncollectedUnits: bigint): void {
    if (uncollectedUnits < 0n) throw new RangeError('an uncollected amount cannot be negative');
    const current = this.byEndpoint.get(endpointId) ?? { endpointId, count: 0, uncollectedUnits: 0n };
    this.byEndpoint.set(endpointId, { endpointId, count: current.count + 1, uncollectedUnits: current.uncollectedUnits + uncollectedUnits });
  }

  read(): EndpointOverruns[] {
    return [...this.byEndpoint.values()].sort((a, b) => (a.endpointId < b.endpointId ? -1 : a.endpointId > b.endpointId ? 1 : 0));
  }
}
