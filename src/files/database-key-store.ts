import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { randomHex } from '../core/random-hex.js';
import type { Database } from '../store/schema.js';
import { openStore, type Store } from '../store/store.js';
import { keyStoreUnavailable, type DataKey, type KeyStore } from './key-store.js';
import { KEY_STORE_MIGRATIONS, type KeyStoreTables } from './key-store-schema.js';
import { BrokenSealError, newKey, openRecord, seal, sealRecord, unseal } from './sealing.js';

type KeyDb = Kysely<Database & KeyStoreTables>;

/**
 * How long one key store operation may take before the store counts as unreachable: a server that
 * stopped answering (a network partition) is a 503 within seconds, not a request hanging on TCP.
 */
const REACH_TIMEOUT_MS = 5_000;

/** What the master key check seals, and the context it is sealed for. */
const CHECK_VALUE = 'switchyard master key check';

/** The key store was written under another master key: nothing in it can be opened with this one. */
export class MasterKeyMismatchError extends Error {
  constructor() {
    super('does not open the data keys of this key store (they were wrapped by another master key)');
    this.name = 'MasterKeyMismatchError';
  }
}

export interface OpenKeyStoreOptions {
  /** Most connections open to PostgreSQL at once (default 10). */
  poolSize?: number;
  /** The clock deciding which keys are past their destroy time (default Date.now). */
  now?: () => number;
  /** Told why the store could not be reached, each time it could not. */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Opens the key store at `url` (`sqlite:PATH`, `sqlite::memory:` or `postgres://…`), brings its
 * schema up to date and checks that `masterKey` is the one its keys were wrapped with
 * (MasterKeyMismatchError otherwise; a fresh store records it). On SQLite, deleted rows are
 * overwritten with zeros (`secure_delete`), so a destroyed key leaves nothing in the file.
 */
export async function openKeyStore(url: string, masterKey: Buffer, options: OpenKeyStoreOptions = {}): Promise<KeyStore> {
  const store = await openStore(url, { migrations: KEY_STORE_MIGRATIONS, ...(options.poolSize !== undefined && { poolSize: options.poolSize }) });
  try {
    store.sqlite?.pragma('secure_delete = ON');
    await checkMasterKey(store, masterKey);
  } catch (error) {
    await store.close();
    throw error;
  }
  return new DatabaseKeyStore(store, masterKey, options);
}

async function checkMasterKey(store: Store, masterKey: Buffer): Promise<void> {
  await store.write((tx) => keyTables(tx).insertInto('master_key_check')
    .values({ id: 1, sealed: sealRecord(masterKey, Buffer.from(CHECK_VALUE), CHECK_VALUE) })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute());
  const row = await keyTables(store.db).selectFrom('master_key_check').select('sealed').where('id', '=', 1).executeTakeFirstOrThrow();
  try {
    openRecord(masterKey, row.sealed, CHECK_VALUE);
  } catch (error) {
    if (error instanceof BrokenSealError) throw new MasterKeyMismatchError();
    throw error;
  }
}

function keyTables(db: Kysely<Database>): KeyDb {
  return db.withTables<KeyStoreTables>();
}

/** The context a data key is wrapped for: its own id, so a wrapped key cannot be moved to another row. */
function wrapContext(id: string): Buffer {
  return Buffer.from(`data-key:${id}`, 'utf8');
}

/** The one KeyStore: rows in a SQLite or PostgreSQL database, every key wrapped by the master key. */
class DatabaseKeyStore implements KeyStore {
  readonly #now: () => number;

  constructor(
    private readonly store: Store,
    private readonly masterKey: Buffer,
    private readonly options: OpenKeyStoreOptions,
  ) {
    this.#now = options.now ?? Date.now;
  }

  async create({ destroyAt }: { destroyAt: number }): Promise<DataKey> {
    const id = `dk_${randomHex(16)}`;
    const key = newKey();
    const { iv, ciphertext, tag } = seal(this.masterKey, key, wrapContext(id));
    const row = { id, iv, wrapped: ciphertext, tag, created_at: this.#now(), destroy_at: destroyAt };
    await this.#reach(() => this.store.write((tx) => keyTables(tx).insertInto('data_keys').values(row).execute()));
    return { id, key, destroyAt };
  }

  async read(id: string): Promise<DataKey | null> {
    const row = await this.#reach(() => keyTables(this.store.db).selectFrom('data_keys')
      .select(['iv', 'wrapped', 'tag', 'destroy_at'])
      .where('id', '=', id)
      .where('destroy_at', '>', this.#now())
      .executeTakeFirst());
    if (!row) return null;
    const key = unseal(this.masterKey, { iv: row.iv, ciphertext: row.wrapped, tag: row.tag }, wrapContext(id), `data key ${id}`);
    return { id, key, destroyAt: row.destroy_at };
  }

  async destroy(id: string): Promise<void> {
    await this.#reach(() => this.store.write((tx) => keyTables(tx).deleteFrom('data_keys').where('id', '=', id).execute()));
  }

  async destroyExpired(limit: number): Promise<number> {
    const now = this.#now();
    const result = await this.#reach(() => this.store.write((tx) => {
      const keys = keyTables(tx);
      const due = keys.selectFrom('data_keys').select('id').where('destroy_at', '<=', now).limit(limit);
      return keys.deleteFrom('data_keys').where('id', 'in', due).executeTakeFirst();
    }));
    return Number(result.numDeletedRows);
  }

  async ping(): Promise<void> {
    await keyTables(this.store.db).selectFrom('master_key_check').select('id').limit(1).execute();
  }

  close(): Promise<void> {
    return this.store.close();
  }

  /**
   * Runs `work` against the store; any failure to reach it, or no answer within REACH_TIMEOUT_MS, is
   * the 503, its cause told to the logger. (A key created after its caller was answered the 503 is
   * never used, and goes at its destroy time.)
   */
  async #reach<T>(work: () => Promise<T>): Promise<T> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${REACH_TIMEOUT_MS} ms`)), REACH_TIMEOUT_MS);
    });
    try {
      return await Promise.race([work(), late]);
    } catch (error) {
      this.options.logger?.warn({ err: error }, 'key store unreachable');
      throw keyStoreUnavailable();
    } finally {
      clearTimeout(timer);
    }
  }
}
