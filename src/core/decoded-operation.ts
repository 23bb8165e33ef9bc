import type { CoreRequest } from './request.js';
import type { RequestFacts } from './request-facts.js';

/** A decoded operation: the request the planner routes, its facts, and the call's own ask. */
export interface DecodedOperation<Ask> {
  request: CoreRequest;
  facts: RequestFacts;
  ask: Ask;
}
