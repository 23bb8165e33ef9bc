import type BetterSqlite3 from 'better-sqlite3';
import { CompiledQuery, sql } from 'kysely';
import { announceOnCommit } from '../store/commit-notices.js';
import { ForeignCommits } from '../store/foreign-commits.js';
import { sqliteRollbacks } from '../store/write-batcher.js';
import type { Db, Store } from '../store/store.js';

/**
 * Advances the key revision inside the transaction `tx`. Every write that changes what a key
 * authenticates as (revocation, suspension, limits, routing defaults) calls it, so the key caches
 * of every process on the database drop what they hold on their next read, on either engine; this
 * process (and, through the fleet's signals, every instance) hears of it as soon as it commits.
 */
export async function bumpKeyRevision(tx: Db): Promise<void> {
  await tx.updateTable('key_revision').set({ revision: sql<number>`revision + 1` }).where('id', '=', 1).execute();
  announceOnCommit(tx, 'keys');
}

const REVISION_SQL = 'SELECT revision FROM key_revision WHERE id = 1';
/** Written out once: it runs on every turn of the event loop that authenticates. */
const REVISION_QUERY = CompiledQuery.raw(REVISION_SQL) as CompiledQuery<{ revision: number }>;

/** Reads the current key revision. */
export type KeyRevisionReader = () => Promise<number>;

/**
 * The key revision of `store`, read at most once per turn of the event loop: the requests that
 * arrive together share one reading (a prepared statement on SQLite, one indexed row on PostgreSQL).
 */
export function keyRevisionReader(store: Store): KeyRevisionReader {
  const statement = store.sqlite?.prepare<[], number>(REVISION_SQL).pluck();
  const read = statement
    ? () => Promise.resolve(statement.get() ?? 0)
    : async () => Number((await store.db.executeQuery(REVISION_QUERY)).rows[0]?.revision ?? 0);
  let pending: Promise<number> | undefined;
  return () => {
    if (!pending) {
      pending = read();
      setImmediate(() => {
        pending = undefined;
      });
    }
    return pending;
  };
}

/**
 * The key revision of a SQLite database this process serves, without a reading per request: the
 * revision last read holds until keys may have changed, that is until a write of this process that
 * changed them commits (`store.committed`), another connection commits anything (the admin CLI;
 * `ForeignCommits`, looked for at most every 10 ms), or the write batch undid writes. A reading taken
 * while a write batch runs sees its uncommitted revision; were it kept after that write rolled back,
 * the next change would bring the revision back to the value read and the key cache would not see it
 * move. A revocation made here is honoured by the next request, one made by the admin CLI within
 * 10 ms of its commit.
 */
export function sqliteKeyRevision(store: Store, database: BetterSqlite3.Database): KeyRevisionReader {
  const statement = database.prepare<[], number>(REVISION_SQL).pluck();
  const foreignCommits = ForeignCommits.of(database);
  let known: { revision: number; foreignVersion: number; rollbacks: number } | undefined;
  store.committed.on('keys', () => {
    known = undefined;
  });
  return () => {
    const foreignVersion = foreignCommits.version();
    const rollbacks = sqliteRollbacks(database);
    if (known?.foreignVersion !== foreignVersion || known.rollbacks !== rollbacks) {
      known = { revision: statement.get() ?? 0, foreignVersion, rollbacks };
    }
    return Promise.resolve(known.revision);
  };
}

/**
 * The key revision as an instance of a fleet knows it. While `told()` says changes are being told
 * (the fleet's signals are heard), the revision last read holds until `moved()` says keys changed
 * (a signal, or this process's own commit) and the next request reads it again: no database
 * reading per request. Otherwise every turn of the event loop reads it, as `keyRevisionReader`
 * does. `poll()` (twice a second) is the safety net for what no signal tells: a change by the admin
 * command line, a signal lost.
 */
export class KeyRevisionWatch {
  #known: number | undefined;
  /** Advanced by `moved()`: a reading begun before it must not be kept. */
  #changes = 0;

  constructor(
    private readonly readNow: KeyRevisionReader,
    private readonly told: () => boolean,
  ) {}

  readonly read: KeyRevisionReader = () => {
    if (this.#known !== undefined && this.told()) return Promise.resolve(this.#known);
    return this.#reading();
  };

  /** Keys changed: the revision is read again on the next request. */
  moved(): void {
    this.#changes += 1;
    this.#known = undefined;
  }

  async poll(): Promise<void> {
    await this.#reading();
  }

  async #reading(): Promise<number> {
    const changes = this.#changes;
    const revision = await this.readNow();
    if (changes === this.#changes) this.#known = revision;
    return revision;
  }
}
