/**
 * Live health of each endpoint from the service's own traffic: an endpoint that failed
 * several times in a row is tried after the healthy ones until it succeeds again or cools down.
 */
export interface EndpointHealth {
  record(endpointId: string, ok: boolean): void;
  isHealthy(endpointId: string): boolean;
}

const FAILURES_TO_DEGRADE = 3;
const COOL_DOWN_MS = 30_000;

export class MemoryEndpointHealth implements EndpointHealth {
  private readonly streaks = new Map<string, { failures: number; lastFailureAt: number }>();

  constructor(private readonly now: () => number = Date.now) {}

  record(endpointId: string, ok: boolean): void {
    if (ok) {
      this.streaks.delete(endpointId);
      return;
    }
    const streak = this.streaks.get(endpointId) ?? { failures: 0, lastFailureAt: 0 };
    streak.failures += 1;
    streak.lastFailureAt = this.now();
    this.streaks.set(endpointId, streak);
  }

  isHealthy(endpointId: string): boolean {
    const streak = this.streaks.get(endpointId);
    if (!streak || streak.failures < FAILURES_TO_DEGRADE) return true;
    return this.now() - streak.lastFailureAt > COOL_DOWN_MS;
  }
}
