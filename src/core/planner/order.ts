import type { PlannedAttempt } from '../plan.js';
import type { Units } from '../../billing/money.js';
import type { ProviderPreferences, SortBy } from '../request.js';
import type { EndpointStateView, ModelVariant } from './context.js';
import { reachesCeiling } from './ceiling.js';
import { endpointTags } from './provider-rules.js';

export interface RankedAttempt extends PlannedAttempt {
  /** What this request would cost at most on this endpoint. */
  estimatedCost: Units;
}

export interface OrderContext {
  state: EndpointStateView;
  preferences: ProviderPreferences;
  requestedCeiling: number | undefined;
  sessionId: string | undefined;
}

type Comparator = (a: RankedAttempt, b: RankedAttempt) => number;

/** The sort a request asks for: `provider.sort`, else the model suffix (`:nitro` throughput, `:floor` price). */
export function requestedSort(preferences: ProviderPreferences, variant: ModelVariant): SortBy | undefined {
  if (preferences.sort) return preferences.sort;
  if (variant === 'nitro') return 'throughput';
  if (variant === 'floor') return 'price';
  return undefined;
}

/**
 * Healthy endpoints always go before ones that just failed repeatedly. Among them: an explicit
 * sort when there is one, else the endpoint that served the session; then the default order:
 * endpoints able to emit the whole requested ceiling, then the cheapest for this request (prompt
 * estimate and ceiling at the endpoint's prices), then endpoint id.
 */
export function sortAttempts(attempts: RankedAttempt[], context: OrderContext, sort: SortBy | undefined): RankedAttempt[] {
  const healthy = healthComparator(context.state);
  const primary = sort ? sortComparator(sort, context.state) : affinityComparator(context);
  const defaults = defaultComparator(context);
  return [...attempts].sort((a, b) => healthy(a, b) || primary(a, b) || defaults(a, b));
}

/** `provider.order` first, in its order; the rest after unless fallbacks are refused. */
export function applyProviderOrder(attempts: RankedAttempt[], preferences: ProviderPreferences): RankedAttempt[] {
  const order = preferences.order;
  if (!order || order.length === 0) return preferences.allowFallbacks === false ? attempts.slice(0, 1) : attempts;
  const position = (attempt: RankedAttempt) => {
    const found = endpointTags(attempt.endpoint).map((tag) => order.indexOf(tag)).filter((index) => index >= 0);
    return found.length > 0 ? Math.min(...found) : Number.POSITIVE_INFINITY;
  };
  const listed = attempts.filter((attempt) => position(attempt) !== Number.POSITIVE_INFINITY);
  listed.sort((a, b) => position(a) - position(b));
  if (preferences.allowFallbacks === false) return listed;
  return [...listed, ...attempts.filter((attempt) => position(attempt) === Number.POSITIVE_INFINITY)];
}

function healthComparator(state: EndpointStateView): Comparator {
  const rank = (attempt: RankedAttempt) => (state.isHealthy(attempt.endpoint.id) ? 0 : 1);
  return (a, b) => rank(a) - rank(b);
}

function defaultComparator(context: OrderContext): Comparator {
  const reaches = (attempt: RankedAttempt) => (reachesCeiling(attempt.endpoint, context.requestedCeiling) ? 0 : 1);
  return (a, b) =>
    reaches(a) - reaches(b) ||
    compareUnits(a.estimatedCost, b.estimatedCost) ||
    a.endpoint.id.localeCompare(b.endpoint.id);
}

function affinityComparator(context: OrderContext): Comparator {
  const preferred = context.sessionId ? context.state.affinity(context.sessionId) : undefined;
  if (!preferred) return () => 0;
  return (a, b) => (a.endpoint.id === preferred ? 0 : 1) - (b.endpoint.id === preferred ? 0 : 1);
}

function sortComparator(sort: SortBy, state: EndpointStateView): Comparator {
  switch (sort) {
    case 'price':
      return (a, b) => compareUnits(a.estimatedCost, b.estimatedCost);
    case 'throughput':
      return byMeasured((attempt) => state.throughput(attempt.endpoint.id), 'desc');
    case 'latency':
      return byMeasured((attempt) => state.latency(attempt.endpoint.id), 'asc');
  }
}

/** Measured figures first (best first); unmeasured endpoints after them. */
function byMeasured(read: (attempt: RankedAttempt) => number | null, direction: 'asc' | 'desc'): Comparator {
  return (a, b) => {
    const x = read(a);
    const y = read(b);
    if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0);
    return direction === 'asc' ? x - y : y - x;
  };
}

function compareUnits(a: Units, b: Units): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
