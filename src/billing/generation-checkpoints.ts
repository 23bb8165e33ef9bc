import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery } from 'kysely';
import type { Logger } from 'pino';
import { JoinedWrites } from '../store/joined-writes.js';
import type { Store } from '../store/store.js';
import { pendingGenerationRow } from './generations.js';
import { GENERATION_COLUMNS, generationValues } from './ledger-tables.js';
import type { CheckpointCadence, DeliveredSoFar, GenerationCheckpoints, Hold } from './types.js';

/**
 * By default a stream checkpoints at most once a second and once per 32 tokens: a crash loses at
 * most about a second of output (or 32 tokens) per stream, for one small write per stream and second.
 */
export const DEFAULT_CHECKPOINT_CADENCE: CheckpointCadence = { tokens: 32, intervalMs: 1_000 };

/**
 * Checkpoints kept on the pending generation row: the serving endpoint and the counts delivered so
 * far. On SQLite the write joins the write batcher's group commit; on PostgreSQL it is one UPDATE
 * outside any transaction, its text written out once. On both, the first checkpoints of streams
 * opening together share one write. A checkpoint never overwrites a later one (counts only grow) and never
 * touches a generation once settled.
 */
export function createGenerationCheckpoints(
  store: Store,
  options: { cadence?: Partial<CheckpointCadence>; logger: Pick<Logger, 'warn'>; instanceId?: string },
): GenerationCheckpoints {
  const cadence = { ...DEFAULT_CHECKPOINT_CADENCE, ...options.cadence };
  const instanceId = options.instanceId ?? null;
  const marks = new CommitMarks(store);
  const notWritten = (generationId: string, error: unknown) => options.logger.warn({ err: error, generation: generationId }, 'generation checkpoint not written');
  const { sqlite } = store;
  // on SQLite the first checkpoints of streams opening together are one write of the group commit;
  // one that cannot be written is logged alone, the others still are written
  const sqliteMarks = sqlite && new JoinedWrites<{ hold: Hold; endpointId: string }>(store, (opened) => {
    const { upsert } = sqliteCheckpoint(sqlite);
    for (const { hold, endpointId } of opened) {
      // the fresh row changed in place: a copy spread from it cost more than the statement
      const row = pendingGenerationRow(hold, instanceId);
      row.endpoint_id = endpointId;
      row.completion_tokens = 0;
      try {
        upsert.run(generationValues(row));
      } catch (error) {
        notWritten(hold.generationId, error);
      }
    }
  });
  const logged = async (generationId: string, write: () => Promise<unknown>) => {
    try {
      await write();
    } catch (error) {
      notWritten(generationId, error);
    }
  };
  return {
    cadence,
    record: (generationId, delivered) => logged(generationId, () => {
      if (sqlite) return store.write(async () => void sqliteCheckpoint(sqlite).update.run(checkpointValues(generationId, delivered)));
      const { endpointId, completionTokens, promptTokens } = delivered;
      return store.db.executeQuery(CompiledQuery.raw(POSTGRES_CHECKPOINT_SQL, [endpointId, completionTokens, promptTokens ?? null, generationId]));
    }),
    committed: (hold, endpointId) => logged(hold.generationId, () => {
      if (sqliteMarks) return sqliteMarks.add({ hold, endpointId });
      // on PostgreSQL every hold is kept in the database, and wrote its pending row with it
      return marks.mark(hold.generationId, endpointId);
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

/** Streams' first checkpoints on PostgreSQL, over the pending rows their holds wrote: generation ids, then endpoint ids. */
const POSTGRES_COMMITTED_SQL = `UPDATE generations SET endpoint_id = marked.endpoint_id, completion_tokens = 0
  FROM unnest($1::text[], $2::text[]) AS marked (id, endpoint_id)
  WHERE generations.id = marked.id AND generations.status = 'pending' AND generations.completion_tokens IS NULL`;

/** Most first checkpoints written by one statement. */
const MAX_MARKS_PER_WRITE = 256;

interface WaitingMark {
  generationId: string;
  endpointId: string;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Streams' first checkpoints on PostgreSQL, written together: those that arrive while one write is
 * under way wait for it, and are then written by one statement. Streams that open together so cost
 * the database one statement, and the gateway one round trip to it, rather than one each.
 */
class CommitMarks {
  #waiting: WaitingMark[] = [];
  #writing = false;

  constructor(private readonly store: Store) {}

  /** Resolves once the generation's first checkpoint is committed. */
  mark(generationId: string, endpointId: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.#waiting.push({ generationId, endpointId, resolve, reject });
      if (!this.#writing) void this.#drain();
    });
  }

  async #drain(): Promise<void> {
    this.#writing = true;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0, MAX_MARKS_PER_WRITE);
      try {
        await this.store.db.executeQuery(CompiledQuery.raw(POSTGRES_COMMITTED_SQL, [batch.map((mark) => mark.generationId), batch.map((mark) => mark.endpointId)]));
        for (const mark of batch) mark.resolve();
      } catch (error) {
        for (const mark of batch) mark.reject(error);
      }
    }
    this.#writing = false;
  }
}
