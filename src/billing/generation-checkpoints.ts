import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import { pendingGenerationRow } from './generations.js';
import { GENERATION_COLUMNS } from './ledger-tables.js';
import type { CheckpointCadence, DeliveredSoFar, GenerationCheckpoints } from './types.js';

/**
 * By default a stream checkpoints at most once a second and once per 32 tokens: a crash loses at
 * most about a second of output (or 32 tokens) per stream, for one small write per stream and second.
 */
export const DEFAULT_CHECKPOINT_CADENCE: CheckpointCadence = { tokens: 32, intervalMs: 1_000 };

/**
 * Checkpoints kept on the pending generation row: the serving endpoint and the counts delivered so
 * far. On SQLite the write joins the write batcher's group commit; on PostgreSQL it is one UPDATE
 * outside any transaction, its text written out once. A checkpoint never overwrites a later one (counts only grow) and never
 * touches a generation once settled.
 */
export function createGenerationCheckpoints(
  store: Store,
  options: { cadence?: Partial<CheckpointCadence>; logger: Pick<Logger, 'warn'>; instanceId?: string },
): GenerationCheckpoints {
  const cadence = { ...DEFAULT_CHECKPOINT_CADENCE, ...options.cadence };
  const instanceId = options.instanceId ?? null;
  const logged = async (generationId: string, write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      options.logger.warn({ err: error, generation: generationId }, 'generation checkpoint not written');
    }
  };
  return {
    cadence,
    record: (generationId, delivered) => logged(generationId, () => {
      const { sqlite } = store;
      if (sqlite) return store.write(async () => void sqliteCheckpoint(sqlite).update.run(checkpointValues(generationId, delivered)));
      const { endpointId, completionTokens, promptTokens } = delivered;
      return store.db.executeQuery(CompiledQuery.raw(POSTGRES_CHECKPOINT_SQL, [endpointId, completionTokens, promptTokens ?? null, generationId]));
    }),
    committed: (hold, endpointId) => logged(hold.generationId, () => {
      const { sqlite } = store;
      if (sqlite) {
        const row = { ...pendingGenerationRow(hold, instanceId), endpoint_id: endpointId, completion_tokens: 0 };
        return store.write(async () => void sqliteCheckpoint(sqlite).upsert.run(GENERATION_COLUMNS.map((column) => row[column] ?? null)));
      }
      // on PostgreSQL every hold is kept in the database, and wrote its pending row with it
      return store.db.executeQuery(CompiledQuery.raw(POSTGRES_COMMITTED_SQL, [endpointId, hold.generationId]));
    }),
  };
}

const CHECKPOINT_SQL = `UPDATE generations SET endpoint_id = @endpoint_id, completion_tokens = @completion_tokens, prompt_tokens = @prompt_tokens
  WHERE id = @id AND status = 'pending' AND (completion_tokens IS NULL OR completion_tokens < @completion_tokens)`;

/**
 * A stream's first checkpoint, naming its endpoint: the pending row as the hold admitted it, written
 * where it is not stored yet (a hold kept in process memory writes none), else the checkpoint over it.
 */
const COMMITTED_SQL = `INSERT INTO generations (${GENERATION_COLUMNS.join(', ')}) VALUES (${GENERATION_COLUMNS.map(() => '?').join(', ')})
  ON CONFLICT (id) DO UPDATE SET endpoint_id = excluded.endpoint_id, completion_tokens = excluded.completion_tokens
  WHERE generations.status = 'pending' AND generations.completion_tokens IS NULL`;

interface CheckpointStatements {
  update: BetterSqlite3.Statement;
  upsert: BetterSqlite3.Statement;
}

const statements = new WeakMap<BetterSqlite3.Database, CheckpointStatements>();

/** The checkpoint statements, prepared once per SQLite connection (the query builder would cost more than they do). */
function sqliteCheckpoint(database: BetterSqlite3.Database): CheckpointStatements {
  let prepared = statements.get(database);
  if (!prepared) {
    prepared = { update: database.prepare(CHECKPOINT_SQL), upsert: database.prepare(COMMITTED_SQL) };
    statements.set(database, prepared);
  }
  return prepared;
}

function checkpointValues(generationId: string, delivered: DeliveredSoFar): Record<string, unknown> {
  return { id: generationId, endpoint_id: delivered.endpointId, completion_tokens: delivered.completionTokens, prompt_tokens: delivered.promptTokens ?? null };
}

/** The checkpoint on PostgreSQL, written out once (its text is prepared once per connection). */
const POSTGRES_CHECKPOINT_SQL = `UPDATE generations SET endpoint_id = $1, completion_tokens = $2, prompt_tokens = $3
  WHERE id = $4 AND status = 'pending' AND (completion_tokens IS NULL OR completion_tokens < $2)`;

/** A stream's first checkpoint on PostgreSQL, over the pending row its hold wrote. */
const POSTGRES_COMMITTED_SQL = `UPDATE generations SET endpoint_id = $1, completion_tokens = 0
  WHERE id = $2 AND status = 'pending' AND completion_tokens IS NULL`;
