import type { Logger } from 'pino';
import type { GenerationCheckpoints, Ledger } from '../billing/types.js';
import type { CatalogueSource } from '../catalogue/source.js';
import type { EndpointStateView } from '../core/planner/context.js';
import type { LiveEndpointState } from '../stats/endpoint-state.js';
import type { SampleRecorder } from '../stats/endpoint-sample.js';
import type { OverrunCounter } from '../stats/overrun-counter.js';
import type { InferenceExecutor } from './executor.js';
import type { StoredFiles } from './stored-files.js';

/** Live endpoint state as the pipeline uses it: the planner's view, and what a served answer feeds. */
export type PipelineEndpointState = EndpointStateView & Pick<LiveEndpointState, 'sessions' | 'verdicts'>;

/** The slice of services the request pipeline needs; the HTTP routes, batches and the prober hand it in. */
export interface InferenceServices {
  catalogue: CatalogueSource;
  state: PipelineEndpointState;
  ledger: Ledger;
  /** Where streams record what they delivered, so a crash bills it (see billing/generation-checkpoints.ts). */
  checkpoints: GenerationCheckpoints;
  executor: InferenceExecutor;
  /** Where every attempt's sample goes, per endpoint (the measured figures). */
  samples: SampleRecorder;
  /** Fed by every settlement whose charge was cut below the reported usage's price. */
  overruns: Pick<OverrunCounter, 'record'>;
  logger: Pick<Logger, 'error' | 'warn'>;
  /** The accounts' stored files, which `file_id` parts name; absent, every `file_id` is unreadable (404). */
  storedFiles?: StoredFiles;
}
