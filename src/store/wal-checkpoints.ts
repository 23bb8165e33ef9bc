import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type BetterSqlite3 from 'better-sqlite3';

/** How often the checkpointer copies the write-ahead log into the database. */
const CHECKPOINT_INTERVAL_MS = 250;
/** Checkpoints run back to back while writes keep landing behind them, at most this many. */
const MOST_PASSES = 8;
/**
 * The log's size at which the gateway's own connection checkpoints (SQLite's default is 1,000
 * pages): only if the checkpointer falls that far behind.
 */
const OWN_CHECKPOINT_PAGES = 10_000;
/** SQLite's own default, restored when the checkpointer is gone. */
const SQLITE_DEFAULT_CHECKPOINT_PAGES = 1_000;

/**
 * The checkpointer: a worker thread with a connection of its own, since a checkpoint on the
 * gateway's connection stops every request behind it while it copies pages and waits for the disk
 * to sync them. A PASSIVE checkpoint runs beside the writer and waits for no one. Plain
 * JavaScript, run as it is: the thread loads nothing of the gateway.
 */
const CHECKPOINTER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const database = new Database(workerData.path, { fileMustExist: true });
const checkpoint = database.prepare('PRAGMA wal_checkpoint(PASSIVE)');
const timer = setInterval(() => {
  try {
    for (let pass = 0; pass < workerData.mostPasses; pass += 1) {
      const { log, checkpointed } = checkpoint.get();
      // every frame of the log is in the database (a log just restarted has none)
      if (checkpointed >= log) break;
    }
  } catch {
    // another connection holds the checkpoint (the admin CLI): the next turn tries again
  }
}, workerData.intervalMs);
parentPort.once('message', () => {
  clearInterval(timer);
  database.close();
  parentPort.close();
});
`;

export interface WalCheckpoints {
  /** Stops the checkpointer and waits for its connection to close. */
  stop(): Promise<void>;
}

/**
 * Copies the write-ahead log of the database at `path` into it from a thread of its own every
 * 250 ms, so the gateway's connection (`database`) never does it on a
 * request's time: with synchronous=NORMAL that is also when commits reach the disk, so a power cut
 * loses at most about the last quarter second of writes. Should the thread fail, the connection
 * checkpoints by itself again, as SQLite does by default.
 */
export function startWalCheckpoints(database: BetterSqlite3.Database, path: string): WalCheckpoints {
  database.pragma(`wal_autocheckpoint = ${OWN_CHECKPOINT_PAGES}`);
  const worker = new Worker(CHECKPOINTER_SOURCE, {
    eval: true,
    workerData: { path, driver: createRequire(import.meta.url).resolve('better-sqlite3'), intervalMs: CHECKPOINT_INTERVAL_MS, mostPasses: MOST_PASSES },
  });
  worker.unref();
  let stopping = false;
  const exited = new Promise<void>((resolve) => {
    worker.once('exit', () => {
      if (!stopping && database.open) database.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_CHECKPOINT_PAGES}`);
      resolve();
    });
  });
  // a thread that fails exits: its failure is answered above
  worker.on('error', () => undefined);
  return {
    async stop() {
      stopping = true;
      // until it has exited, the thread keeps the process alive
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
