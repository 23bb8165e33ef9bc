import type { Catalogue, EndpointEntry, ModelEntry } from '../../catalogue/types.js';
import type { CoreRequest } from '../request.js';

/** Live state the planner reads beside the catalogue; no I/O behind it. */
export interface EndpointStateView {
  isHealthy(endpointId: string): boolean;
}

export interface PlannerInput {
  catalogue: Catalogue;
  state: EndpointStateView;
  request: CoreRequest;
  /** Estimated prompt tokens: messages plus tool schemas. */
  promptTokens: number;
  now: Date;
}

/** What one eligibility rule sees about one candidate endpoint. */
export interface Candidate {
  model: ModelEntry;
  endpoint: EndpointEntry;
  input: PlannerInput;
}
