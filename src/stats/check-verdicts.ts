/**
 * The latest check verdict per endpoint and capability (`tools`, `structured_outputs`,
 * `tool_call_dispatch`, `reasoning_effort:<level>`, `reasoning_none`). A failed latest check
 * withholds the declared promise until a later check passes. Filled by checks and by operators.
 */
export interface VerdictRecord {
  passed: boolean;
  at: number;
}

export class CheckVerdicts {
  private readonly latest = new Map<string, VerdictRecord>();

  record(endpointId: string, capability: string, passed: boolean, at = Date.now()): void {
    const key = `${endpointId}\u0000${capability}`;
    const previous = this.latest.get(key);
    if (previous && previous.at > at) return;
    this.latest.set(key, { passed, at });
  }

  verdict(endpointId: string, capability: string): 'pass' | 'fail' | undefined {
    const record = this.latest.get(`${endpointId}\u0000${capability}`);
    if (!record) return undefined;
    return record.passed ? 'pass' : 'fail';
  }
}
