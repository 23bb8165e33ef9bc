import type { Selectable } from 'kysely';
import type { HeaderBag } from '../dialects/shared/request-headers.js';
import type { Db, Store } from '../store/store.js';
import type { BatchesTable, BatchRequestsTable } from '../store/schema.js';

export type BatchRow = Selectable<BatchesTable>;

/** What a batch's runner needs of a submission at every send, kept with the batch as JSON (no secret in it). */
export interface SubmissionContext {
  /** `X-Title` and `HTTP-Referer` of the submission: every request is attributed to them. */
  headers: HeaderBag;
  metadata: Record<string, string> | null;
}
export type BatchRequestRow = Selectable<BatchRequestsTable>;

/** Spec 02 batch statuses; the last four are terminal. */
export type BatchStatus = 'validating' | 'in_progress' | 'cancelling' | 'completed' | 'failed' | 'expired' | 'cancelled';

export const BATCH_STATUSES: readonly BatchStatus[] = ['validating', 'in_progress', 'cancelling', 'completed', 'failed', 'expired', 'cancelled'];

/** The statuses of a batch still waiting or running: what the runner takes, and what the per-account cap counts. */
export const ACTIVE_STATUSES: readonly BatchStatus[] = ['validating', 'in_progress', 'cancelling'];

/** Where one request of a batch stands: waiting, sent under its generation, or ended with its line. */
export type RequestState = 'queued' | 'sending' | 'settled' | 'failed';

/**
 * How an ended request counts: completed (answered), failed (an error line), or in neither (cut by
 * a cancel before anything was charged: listed `batch_cancelled`).
 */
export type RequestOutcome = 'completed' | 'failed' | 'unsent';

/** Rows inserted per statement: well under either engine's limit on bound parameters. */
const INSERT_CHUNK = 100;

/** Writes a batch and its requests in one transaction. */
export async function insertBatch(tx: Db, batch: BatchRow, requests: readonly BatchRequestRow[]): Promise<void> {
  await tx.insertInto('batches').values(batch).execute();
  for (let start = 0; start < requests.length; start += INSERT_CHUNK) {
    await tx.insertInto('batch_requests').values(requests.slice(start, start + INSERT_CHUNK)).execute();
  }
}

/** How many of the account's batches are waiting or running. */
export async function countActive(db: Db, accountId: string): Promise<number> {
  const row = await db.selectFrom('batches').select((eb) => eb.fn.countAll<number>().as('active'))
    .where('account_id', '=', accountId).where('status', 'in', ACTIVE_STATUSES).executeTakeFirst();
  return Number(row?.active ?? 0);
}

export async function findBatch(db: Db, accountId: string, id: string): Promise<BatchRow | undefined> {
  return db.selectFrom('batches').selectAll().where('id', '=', id).where('account_id', '=', accountId).executeTakeFirst();
}

export async function readBatch(db: Db, id: string): Promise<BatchRow | undefined> {
  return db.selectFrom('batches').selectAll().where('id', '=', id).executeTakeFirst();
}

export interface BatchListQuery {
  statuses: readonly BatchStatus[];
  /** Exclusive bounds on `created_at`, epoch ms. */
  createdAfter: number | null;
  createdBefore: number | null;
  /** The last id of the previous page: older batches follow it. */
  after: string | null;
  limit: number;
}

/** The account's batches, newest first (ids are time-ordered), one more than `limit` to tell whether more follow. */
export async function listBatches(db: Db, accountId: string, query: BatchListQuery): Promise<BatchRow[]> {
  let select = db.selectFrom('batches').selectAll().where('account_id', '=', accountId);
  if (query.statuses.length > 0) select = select.where('status', 'in', query.statuses);
  if (query.createdAfter !== null) select = select.where('created_at', '>', query.createdAfter);
  if (query.createdBefore !== null) select = select.where('created_at', '<', query.createdBefore);
  if (query.after !== null) select = select.where('id', '<', query.after);
  return select.orderBy('id', 'desc').limit(query.limit + 1).execute();
}

/** Moves a batch from one status to another; false when it was no longer in `from` (someone else moved it). */
export async function moveBatch(tx: Db, id: string, from: readonly BatchStatus[], to: BatchStatus, also: Partial<BatchRow> = {}): Promise<boolean> {
  const result = await tx.updateTable('batches').set({ ...also, status: to }).where('id', '=', id).where('status', 'in', from).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The account's oldest batch still waiting or running. */
export async function oldestActive(db: Db, accountId: string): Promise<BatchRow | undefined> {
  return db.selectFrom('batches').selectAll().where('account_id', '=', accountId).where('status', 'in', ACTIVE_STATUSES)
    .orderBy('created_at').orderBy('id').limit(1).executeTakeFirst();
}

/** Accounts with a batch waiting or running whose lease is free (none, or lapsed at `now`). */
export async function accountsToTake(db: Db, now: number, limit: number): Promise<string[]> {
  const rows = await db.selectFrom('batches')
    .leftJoin('batch_leases', 'batch_leases.account_id', 'batches.account_id')
    .select('batches.account_id')
    .distinct()
    .where('batches.status', 'in', ACTIVE_STATUSES)
    .where((eb) => eb.or([eb('batch_leases.expires_at', 'is', null), eb('batch_leases.expires_at', '<=', now)]))
    .limit(limit)
    .execute();
  return rows.map((row) => row.account_id);
}

/** How a lease was had: renewed by its holder, taken when there was none, or taken over when another's lapsed. */
export type LeaseClaim = 'renewed' | 'taken' | 'taken over';

/**
 * Takes or renews the lease on an account's batches until `expiresAt`: renewed when `holder`
 * already has it, taken when there is none, taken over when another holder's lapsed; null when
 * another holds it still. Each is one conditional write, so two instances racing for one account
 * cannot both win.
 */
export async function claimLease(store: Store, accountId: string, holder: string, now: number, expiresAt: number): Promise<LeaseClaim | null> {
  return store.write(async (tx) => {
    const renewed = await tx.updateTable('batch_leases').set({ expires_at: expiresAt })
      .where('account_id', '=', accountId).where('holder', '=', holder).executeTakeFirst();
    if (Number(renewed.numUpdatedRows) > 0) return 'renewed';
    const takenOver = await tx.updateTable('batch_leases').set({ holder, expires_at: expiresAt })
      .where('account_id', '=', accountId).where('expires_at', '<=', now).executeTakeFirst();
    if (Number(takenOver.numUpdatedRows) > 0) return 'taken over';
    const inserted = await tx.insertInto('batch_leases').values({ account_id: accountId, holder, expires_at: expiresAt })
      .onConflict((conflict) => conflict.column('account_id').doNothing()).returning('account_id').executeTakeFirst();
    return inserted === undefined ? null : 'taken';
  });
}

/** Lets go of a lease this holder has, so another instance may take the account at once. */
export async function releaseLease(store: Store, accountId: string, holder: string): Promise<void> {
  await store.write((tx) => tx.deleteFrom('batch_leases').where('account_id', '=', accountId).where('holder', '=', holder).execute());
}

/** Requests read from the database at a time: memory stays flat however large the batch. */
const PAGE = 64;

/**
 * The batch's requests (those in `state`, or all), in submission order, a page at a time. Each page
 * is read when the previous one was handled, so states changed meanwhile are seen.
 */
export async function* requestPages(db: Db, batchId: string, state?: RequestState): AsyncGenerator<BatchRequestRow[]> {
  for (let fromSeq = 0; ;) {
    let select = db.selectFrom('batch_requests').selectAll().where('batch_id', '=', batchId).where('seq', '>=', fromSeq);
    if (state !== undefined) select = select.where('state', '=', state);
    const page = await select.orderBy('seq').limit(PAGE).execute();
    const last = page.at(-1);
    if (!last) return;
    yield page;
    fromSeq = last.seq + 1;
  }
}

/** Whether any request of the batch is in `state`. */
export async function anyIn(db: Db, batchId: string, state: RequestState): Promise<boolean> {
  const row = await db.selectFrom('batch_requests').select('seq').where('batch_id', '=', batchId).where('state', '=', state).limit(1).executeTakeFirst();
  return row !== undefined;
}

/** Who sends: the instance holding the account's lease, as of `now`. */
export interface LeaseHolder {
  accountId: string;
  holder: string;
  now: number;
}

/**
 * Records that a queued request is being sent under `generationId`, only while `lease` still holds
 * the account's lease (an instance that stalled past it sends nothing the new holder may send);
 * false when the request was not queued any more or the lease was lost.
 */
export async function markSending(store: Store, batchId: string, seq: number, generationId: string, lease: LeaseHolder): Promise<boolean> {
  return store.write(async (tx) => {
    const result = await tx.updateTable('batch_requests').set({ state: 'sending', generation_id: generationId })
      .where('batch_id', '=', batchId).where('seq', '=', seq).where('state', '=', 'queued')
      .where((eb) => eb.exists(eb.selectFrom('batch_leases').select('account_id')
        .where('account_id', '=', lease.accountId).where('holder', '=', lease.holder).where('expires_at', '>', lease.now)))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  });
}

/**
 * Records a sent request's sealed line and counts it, in one transaction; only while it is still
 * being sent under `generationId` (a request another instance took over is not written twice).
 */
export async function recordEnded(store: Store, batchId: string, seq: number, generationId: string | null, ended: { result: Buffer; outcome: RequestOutcome }): Promise<boolean> {
  return store.write(async (tx) => {
    let update = tx.updateTable('batch_requests')
      .set({ state: ended.outcome === 'completed' ? 'settled' : 'failed', result: ended.result, outcome: ended.outcome, body: null })
      .where('batch_id', '=', batchId).where('seq', '=', seq);
    update = generationId === null ? update.where('state', '=', 'queued') : update.where('state', '=', 'sending').where('generation_id', '=', generationId);
    const result = await update.executeTakeFirst();
    if (Number(result.numUpdatedRows) === 0) return false;
    if (ended.outcome === 'unsent') return true;
    await tx.updateTable('batches')
      .set((eb) => (ended.outcome === 'completed' ? { completed: eb('completed', '+', 1) } : { failed: eb('failed', '+', 1) }))
      .where('id', '=', batchId).execute();
    return true;
  });
}

/** Puts a request that was being sent back in the queue (its send never reached a charge). */
export async function requeue(store: Store, batchId: string, seq: number, generationId: string): Promise<void> {
  await store.write((tx) => tx.updateTable('batch_requests').set({ state: 'queued', generation_id: null })
    .where('batch_id', '=', batchId).where('seq', '=', seq).where('state', '=', 'sending').where('generation_id', '=', generationId).execute());
}

/** Once the results file holds them: the bodies and lines of the batch are cleared. */
export async function clearRequests(store: Store, batchId: string): Promise<void> {
  await store.write((tx) => tx.updateTable('batch_requests').set({ body: null, result: null }).where('batch_id', '=', batchId).execute());
}
