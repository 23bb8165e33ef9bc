import type { CheckObservation } from '../../stats/check-verdicts.js';
import type { EndpointFigures } from '../../stats/endpoint-figures.js';

/** What the endpoint listing reads about endpoints beyond the catalogue: health, checks, figures. */
export interface EndpointStateView extends EndpointFigures {
  isHealthy(endpointId: string): boolean;
  verdict(endpointId: string, capability: string): 'pass' | 'fail' | undefined;
  observations(endpointId: string): readonly CheckObservation[];
}
