import type { EndpointStateView } from '../core/planner/context.js';
import { CheckVerdicts } from './check-verdicts.js';
import { MemoryEndpointHealth, type EndpointHealth } from './endpoint-health.js';
import { EndpointTimings } from './endpoint-timings.js';
import { SessionAffinity } from './session-affinity.js';

/** Everything live the planner reads about endpoints, in one place. */
export class LiveEndpointState implements EndpointStateView {
  constructor(
    readonly health: EndpointHealth = new MemoryEndpointHealth(),
    readonly verdicts = new CheckVerdicts(),
    readonly timings = new EndpointTimings(),
    readonly sessions = new SessionAffinity(),
  ) {}

  isHealthy(endpointId: string): boolean {
    return this.health.isHealthy(endpointId);
  }

  throughput(endpointId: string): number | null {
    return this.timings.throughput(endpointId);
  }

  latency(endpointId: string): number | null {
    return this.timings.latency(endpointId);
  }

  affinity(sessionId: string): string | undefined {
    return this.sessions.endpointFor(sessionId);
  }
}
