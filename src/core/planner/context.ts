import type { Catalogue, EndpointEntry, ModelEntry } from '../../catalogue/types.js';
import type { CapabilityVerdictView } from '../capability-checks.js';
import type { CoreRequest, ProviderPreferences } from '../request.js';
import type { RequestFacts } from '../request-facts.js';

/** Live state the planner reads beside the catalogue; no I/O behind it. */
export interface EndpointStateView {
  /** False after a run of failures, or while the measured uptime of the last five minutes is low. */
  isHealthy(endpointId: string): boolean;
  /** Median completion tokens per second of the measured figures (`throughput_last_30m`, else `_1d`); null until gated. */
  throughput(endpointId: string): number | null;
  /** Median seconds to first token of the measured figures (`latency_last_30m`, else `ttft_last_1d`); null until gated. */
  latency(endpointId: string): number | null;
  /** The endpoint that last served this conversation. */
  affinity(sessionId: string): string | undefined;
}

/** A model id suffix and what it asks of routing. */
export type ModelVariant = 'free' | 'nitro' | 'floor' | null;

export interface PlannerInput {
  catalogue: Catalogue;
  state: EndpointStateView;
  /** The latest capability checks: a promise whose check failed is withheld (rules 1, 4, 5, 10; dispatch). */
  verdicts: CapabilityVerdictView;
  request: CoreRequest;
  /** Workspace routing defaults; explicit request preferences win key by key. */
  workspaceDefaults?: ProviderPreferences;
  facts: RequestFacts;
  now: Date;
}

/** What one eligibility rule sees about one candidate endpoint. */
export interface Candidate {
  model: ModelEntry;
  variant: ModelVariant;
  endpoint: EndpointEntry;
  input: PlannerInput;
  preferences: ProviderPreferences;
}
