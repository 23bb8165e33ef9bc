import type BetterSqlite3 from 'better-sqlite3';
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
        const { sqlite } = store;
        if (sqlite) await store.write(async () => void sqliteCheckpoint(sqlite).run(checkpointValues(generationId, delivered)));
        else await writeCheckpoint(store.db, generationId, delivered);
      } catch (error) {
        options.logger.warn({ err: error, generation: generationId }, 'generation checkpoint not written');
      }
    },
  };
}

const CHECKPOINT_SQL = `UPDATE generations SET endpoint_id = @endpoint_id, completion_tokens = @completion_tokens, prompt_tokens = @prompt_tokens
  WHERE id = @id AND status = 'pending' AND (completion_tokens IS NULL OR completion_tokens < @completion_tokens)`;

const statements = new WeakMap<BetterSqlite3.Database, BetterSqlite3.Statement>();

/** The checkpoint statement, prepared once per SQLite connection (the query builder would cost more than it). */
function sqliteCheckpoint(database: BetterSqlite3.Database): BetterSqlite3.Statement {
  let statement = statements.get(database);
  if (!statement) {
    statement = database.prepare(CHECKPOINT_SQL);
    statements.set(database, statement);
  }
  return statement;
}

function checkpointValues(generationId: string, delivered: DeliveredSoFar): Record<string, unknown> {
  return { id: generationId, endpoint_id: delivered.endpointId, completion_tokens: delivered.completionTokens, prompt_tokens: delivered.promptTokens ?? null };
}

/** The same checkpoint through the query builder (PostgreSQL). */
async function writeCheckpoint(db: Store['db'], generationId: string, delivered: DeliveredSoFar): Promise<void> {
  await db
    .updateTable('generations')
    .set({ endpoint_id: delivered.endpointId, completion_tokens: delivered.completionTokens, prompt_tokens: delivered.promptTokens ?? null })
    .where('id', '=', generationId)
    .where('status', '=', 'pending')
    .where((where) => where.or([where('completion_tokens', 'is', null), where('completion_tokens', '<', delivered.completionTokens)]))
    .execute();
}
