import type { RunningGateway } from '../../src/runtime/gateway.js';
import { parseSamples } from '../e2e/metrics-text.js';

/**
 * What each instance of a harness did, asked of that instance directly (never through the rotating
 * `baseUrl`): on one gateway these hold trivially; on a fleet they show that a suite's requests
 * really were spread over every instance, and that every instance is still up afterwards.
 */

interface Instances {
  gateways: readonly RunningGateway[];
}

/** Requests each instance answered so far, by its own `/metrics` (its reads of `/metrics` left out). */
export async function answeredByEach(harness: Instances): Promise<number[]> {
  return Promise.all(harness.gateways.map(async (gateway) => {
    const text = await (await fetch(`${gateway.url}/metrics`)).text();
    return parseSamples(text)
      .filter((sample) => sample.name === 'switchyard_http_requests_total' && sample.labels.route !== '/metrics')
      .reduce((sum, sample) => sum + sample.value, 0);
  }));
}

/** Requests each instance answered since `before` (an earlier `answeredByEach`). */
export async function answeredSince(harness: Instances, before: readonly number[]): Promise<number[]> {
  return (await answeredByEach(harness)).map((count, index) => count - (before[index] ?? 0));
}

/**
 * Why requests answered `answered` times by each instance were not spread over every instance, or
 * undefined: each must have answered at least half its even share (the harness sends them in turn,
 * so each answers about its share; an instance a client stuck to, or one never reached, falls short).
 */
export function spreadProblem(answered: readonly number[]): string | undefined {
  const total = answered.reduce((sum, count) => sum + count, 0);
  const short = answered.flatMap((count, index) => (total > 0 && count * 2 * answered.length >= total ? [] : [index]));
  if (short.length === 0) return undefined;
  return `instance ${short.join(' and ')} of ${answered.length} answered less than half its share of ${total} requests (answered by each: ${answered.join(', ')})`;
}

/** The instances that do not answer `GET /api/v1/` with `{status: "ok"}`, by index: none while they are all up. */
export async function instancesDown(harness: Instances): Promise<string[]> {
  const down = await Promise.all(harness.gateways.map(async (gateway, index) => {
    try {
      const response = await fetch(`${gateway.url}/api/v1/`);
      const body = (await response.json()) as { status?: unknown };
      return response.status === 200 && body.status === 'ok' ? [] : [`instance ${index}: ${response.status} ${JSON.stringify(body)}`];
    } catch (error) {
      return [`instance ${index}: ${String(error)}`];
    }
  }));
  return down.flat();
}
