import type { EndpointStateView } from '../core/planner/context.js';
import { CheckVerdicts } from './check-verdicts.js';
import type { MeasuredFigures } from './endpoint-figures.js';
import { MemoryEndpointHealth, type EndpointHealth } from './endpoint-health.js';
import { MeasuredEndpointFigures } from './measured-figures.js';
import { SessionAffinity } from './session-affinity.js';

/**
 * Below this uptime over the last five minutes (once measured) an endpoint counts as degraded: it
 * reports status -1 and is tried after the healthy ones, as after a run of failures.
 */
export const HEALTHY_UPTIME_PERCENT = 80;

/** Everything live the planner reads about endpoints, in one place. */
export class LiveEndpointState implements EndpointStateView {
  constructor(
    readonly health: EndpointHealth = new MemoryEndpointHealth(),
    readonly verdicts = new CheckVerdicts(),
    readonly sessions = new SessionAffinity(),
    readonly figures = new MeasuredEndpointFigures(),
  ) {}

  /** Healthy: no run of failures just now, and no measured outage over the last five minutes. */
  isHealthy(endpointId: string): boolean {
    if (!this.health.isHealthy(endpointId)) return false;
    const uptime = this.figures.figuresOf(endpointId).uptime.last5m.value;
    return uptime === null || uptime >= HEALTHY_UPTIME_PERCENT;
  }

  figuresOf(endpointId: string): MeasuredFigures {
    return this.figures.figuresOf(endpointId);
  }

  /** Median tokens per second over the last 30 minutes' streams, else over the last day's. */
  throughput(endpointId: string): number | null {
    const { throughput } = this.figures.figuresOf(endpointId);
    return (throughput.last30m.value ?? throughput.last1d.value)?.p50 ?? null;
  }

  /** Median seconds to first token over the last 30 minutes, else over the last day. */
  latency(endpointId: string): number | null {
    const { ttft } = this.figures.figuresOf(endpointId);
    return (ttft.last30m.value ?? ttft.last1d.value)?.p50 ?? null;
  }

  affinity(sessionId: string): string | undefined {
    return this.sessions.endpointFor(sessionId);
  }
}
