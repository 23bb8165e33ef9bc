/**
 * The latest check verdict per endpoint and capability (`tools`, `structured_outputs`,
 * `tool_call_dispatch`, `reasoning_effort:<level>`, `reasoning_none`, `input_modality:<modality>`).
 * A failed latest check withholds the declared promise until a later check passes. Filled by checks
 * and by operators.
 */
export interface VerdictRecord {
  passed: boolean;
  at: number;
}

/** One capability's latest verdict, as the endpoint listing shows it. */
export interface CheckObservation extends VerdictRecord {
  capability: string;
}

export class CheckVerdicts {
  private readonly latest = new Map<string, Map<string, VerdictRecord>>();

  record(endpointId: string, capability: string, passed: boolean, at = Date.now()): void {
    let byCapability = this.latest.get(endpointId);
    if (!byCapability) {
      byCapability = new Map();
      this.latest.set(endpointId, byCapability);
    }
    const previous = byCapability.get(capability);
    if (previous && previous.at > at) return;
    byCapability.set(capability, { passed, at });
  }

  verdict(endpointId: string, capability: string): 'pass' | 'fail' | undefined {
    const record = this.latest.get(endpointId)?.get(capability);
    if (!record) return undefined;
    return record.passed ? 'pass' : 'fail';
  }

  /** Every capability of the endpoint with a verdict, in capability order. */
  observations(endpointId: string): CheckObservation[] {
    const byCapability = this.latest.get(endpointId);
    if (!byCapability) return [];
    return [...byCapability.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([capability, record]) => ({ capability, ...record }));
  }
}
