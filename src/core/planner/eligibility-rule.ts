import type { Candidate } from './context.js';

/** A routing rule: the reason an endpoint cannot serve the request, or null when it can. */
export type EligibilityRule = (candidate: Candidate) => string | null;
