import type { CapabilityVerdictView } from '../../core/capability-checks.js';
import type { CheckVerdict } from '../../stats/check-verdicts.js';
import type { EndpointFigures } from '../../stats/endpoint-figures.js';

/** What the endpoint listing reads about endpoints beyond the catalogue: health, checks, figures. */
export interface EndpointStateView extends EndpointFigures {
  isHealthy(endpointId: string): boolean;
  /** The capability checks' latest verdicts, as routing reads them, and each endpoint's list of them. */
  readonly verdicts: CapabilityVerdictView & { observations(endpointId: string): readonly CheckVerdict[] };
}
