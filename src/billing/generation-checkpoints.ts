import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import type { CheckpointCadence, DeliveredSoFar, GenerationCheckpoints } from './types.js';

/**
 * By default a stream checkpoints at most once a second and once per 32 tokens: a crash loses at
 * most about a second of output (or 32 tokens) per stream, for one small write per stream and second.
 */
export const DEFAULT_CHECKPOINT_CADENCE: CheckpointCadence = { tokens: 32, intervalMs: 1_000 };

/**
 * Checkpoints kept on the pending generation row: the serving endpoint and the counts delivered so
 * far. On SQLite the write joins the write batcher's group commit; on PostgreSQL it is one UPDATE
 * outside any transaction. A checkpoint never overwrites a later one (counts only grow) and never
 * touches a generation once settled.
 */
export function createGenerationCheckpoints(
  store: Store,
  options: { cadence?: Partial<CheckpointCadence>; logger: Pick<Logger, 'warn'> },
): GenerationCheckpoints {
  const cadence = { ...DEFAULT_CHECKPOINT_CADENCE, ...options.cadence };
  return {
    cadence,
    async record(generationId, delivered) {
      try {
        if (store.sqlite) await store.write((tx) => writeCheckpoint(tx, generationId, delivered));
        else await writeCheckpoint(store.db, generationId, delivered);
      } catch (error) {
        options.logger.warn({ err: error, generation: generationId }, 'generation checkpoint not written');
      }
    },
  };
}

async function writeCheckpoint(db: Store['db'], generationId: string, delivered: DeliveredSoFar): Promise<void> {
  await db
    .updateTable('generations')
    .set({ endpoint_id: delivered.endpointId, completion_tokens: delivered.completionTokens, prompt_tokens: delivered.promptTokens ?? null })
    .where('id', '=', generationId)
    .where('status', '=', 'pending')
    .where((where) => where.or([where('completion_tokens', 'is', null), where('completion_tokens', '<', delivered.completionTokens)]))
    .execute();
}
