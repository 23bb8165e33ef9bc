import type BetterSqlite3 from 'better-sqlite3';
import type { Logger } from 'pino';
import type { Store } from '../store/store.js';
import { pendingGenerationRow } from './generations.js';
import { GENERATION_COLUMNS, type PendingGenerationRow } from './ledger-tables.js';
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
      return writeCheckpoint(store.db, generationId, delivered);
    }),
    committed: (hold, endpointId) => logged(hold.generationId, () => {
      const row = { ...pendingGenerationRow(hold, instanceId), endpoint_id: endpointId, completion_tokens: 0 };
      const { sqlite } = store;
      if (sqlite) return store.write(async () => void sqliteCheckpoint(sqlite).upsert.run(GENERATION_COLUMNS.map((column) => row[column] ?? null)));
      return upsertCheckpoint(store.db, row);
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

/** The same first checkpoint through the query builder (PostgreSQL). */
async function upsertCheckpoint(db: Store['db'], row: PendingGenerationRow): Promise<void> {
  await db
    .insertInto('generations')
    .values(row)
    .onConflict((conflict) => conflict
      .column('id')
      .doUpdateSet({ endpoint_id: row.endpoint_id ?? null, completion_tokens: 0 })
      .where('generations.status', '=', 'pending')
      .where('generations.completion_tokens', 'is', null))
    .execute();
}
