import type { PlannedAttempt } from '../plan.js';
import type { Units } from '../../billing/money.js';
import type { EndpointStateView } from './context.js';
import { reachesCeiling } from './ceiling.js';

export interface RankedAttempt extends PlannedAttempt {
  /** What this request would cost at most on this endpoint. */
  estimatedCost: Units;
}

/**
 * Default order within one model: healthy endpoints first, then those able to emit the whole
 * requested ceiling, then the cheapest for this request (prompt estimate and ceiling at the
 * endpoint's prices), then endpoint id so the order is stable.
 */
export function orderAttempts(attempts: RankedAttempt[], state: EndpointStateView, requestedCeiling: number | undefined): RankedAttempt[] {
  const keyed = attempts.map((attempt) => ({
    attempt,
    healthy: state.isHealthy(attempt.endpoint.id) ? 0 : 1,
    reaches: reachesCeiling(attempt.endpoint, requestedCeiling) ? 0 : 1,
  }));
  keyed.sort((a, b) =>
    a.healthy - b.healthy ||
    a.reaches - b.reaches ||
    compareUnits(a.attempt.estimatedCost, b.attempt.estimatedCost) ||
    a.attempt.endpoint.id.localeCompare(b.attempt.endpoint.id));
  return keyed.map((entry) => entry.attempt);
}

function compareUnits(a: Units, b: Units): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
