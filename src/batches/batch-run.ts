import type { Logger } from 'pino';
import type { KeyContext, KeyDirectory } from '../accounts/types.js';
import { GatewayError, INTERNAL_ERROR_MESSAGE, unauthenticated } from '../core/errors.js';
import { newGenerationId } from '../core/generation-id.js';
import type { HeaderBag } from '../dialects/shared/request-headers.js';
import type { FileService } from '../files/file-service.js';
import type { KeyStore } from '../files/key-store.js';
import type { CallObserver } from '../inference/observer.js';
import { DIALECTS } from '../inference/dialects.js';
import { runInference } from '../inference/run-inference.js';
import type { InferenceServices } from '../inference/services.js';
import type { Store } from '../store/store.js';
import {
  anyIn, clearRequests, markSending, moveBatch, readBatch, recordEnded, requeue, requestPages,
  type BatchRequestRow, type BatchRow, type BatchStatus, type RequestOutcome, type SubmissionContext,
} from './batch-rows.js';
import { BatchSeal } from './batch-seal.js';
import { answeredLine, failedLine, lostReplyLine, unsentLine, type ResultLine, type UnsentReason } from './result-line.js';
import { BATCH_ENDPOINTS, type BatchEndpoint } from './submission.js';

/** Spec 02 Limits: one reply at most 1 MiB; an account's requests in flight from batches. */
export const REPLY_LIMIT_BYTES = 1024 * 1024;
export const IN_FLIGHT_PER_ACCOUNT = 8;

/** How often a running batch looks again at its status (a cancel may arrive at another instance). */
const STATUS_POLL_MS = 500;

/** What running a batch needs: the pipeline, the keys as they stand now, the seals and the file store. */
export interface BatchRunServices {
  store: Store;
  pipeline: InferenceServices;
  keys: Pick<KeyDirectory, 'current'>;
  dataKeys: KeyStore;
  files: FileService;
  logger: Pick<Logger, 'error' | 'warn' | 'info'>;
  /** This instance's id: the holder of the leases it sends under. */
  holder: string;
  /** Aborted when the instance drains: requests in flight are cut as a restart cuts them. */
  restart: AbortSignal;
  now: () => number;
}

/** A batch's calls are told nothing: the generation records and the samples speak for them. */
const QUIET: CallObserver = {
  refused: () => undefined,
  attemptFailed: () => undefined,
  answered: () => undefined,
  streamOpened: () => undefined,
  streamClosed: () => undefined,
};

/**
 * Runs one batch of an account to its end, on the instance holding the account's lease: requests
 * in submission order, at most 8 in flight, each through the pipeline's one entry exactly as the
 * live route runs it, under the submitting key as it stands at send time; then the results file.
 * `stopped` ends dispatch (the lease was lost, or the instance drains): the batch stays running for
 * whoever takes the account next.
 */
export class BatchRun {
  readonly #services: BatchRunServices;
  readonly #stopped: AbortSignal;
  #batch: BatchRow;
  #seal!: BatchSeal;
  readonly #cut = new AbortController();
  readonly #inFlight = new Set<Promise<void>>();
  #resultBytes = 0;
  #leaseLost = false;
  #maxResultBytes: number;

  constructor(services: BatchRunServices, batch: BatchRow, stopped: AbortSignal) {
    this.#services = services;
    this.#batch = batch;
    this.#stopped = stopped;
    this.#maxResultBytes = services.files.maxUploadBytes;
  }

  /**
   * Runs the batch until it ends (`ended`), or until it can go no further for now (`waiting`): the
   * run was stopped, or requests another instance was sending still await their settlement.
   */
  async run(): Promise<'ended' | 'waiting'> {
    const { store, dataKeys } = this.#services;
    this.#seal = await BatchSeal.open(dataKeys, this.#batch.key_id, this.#batch.id);
    await this.#refresh();
    if (this.#batch.status === 'validating') {
      if (this.#batch.failed === this.#batch.total) {
        await this.#finish('failed', 'Every request failed validation; see the results');
        return 'ended';
      }
      await store.write((tx) => moveBatch(tx, this.#batch.id, ['validating'], 'in_progress', { in_progress_at: this.#services.now() }));
      await this.#refresh();
    }
    await this.#settleTakenOver();
    this.#resultBytes = await this.#recordedBytes();
    const watch = setInterval(() => void this.#refresh().catch(() => undefined), STATUS_POLL_MS);
    watch.unref();
    try {
      await this.#dispatch();
      await Promise.all(this.#inFlight);
    } finally {
      clearInterval(watch);
    }
    if (this.#stopped.aborted || this.#leaseLost || (await anyIn(store.db, this.#batch.id, 'sending'))) return 'waiting';
    await this.#refresh();
    const status = this.#batch.status as BatchStatus;
    if (status === 'cancelling') await this.#finish('cancelled');
    else if (this.#services.now() >= this.#batch.expires_at && (await anyIn(store.db, this.#batch.id, 'queued'))) await this.#finish('expired');
    else await this.#finish('completed');
    return 'ended';
  }

  /** Sends the queued requests in order, at most 8 at once, until none is left or the batch stops. */
  async #dispatch(): Promise<void> {
    for await (const page of requestPages(this.#services.store.db, this.#batch.id, 'queued')) {
      for (const request of page) {
        while (this.#inFlight.size >= IN_FLIGHT_PER_ACCOUNT) await Promise.race(this.#inFlight);
        // every reply in flight may take 1 MiB of the results file: wait for them while one more would not fit
        while (this.#inFlight.size > 0 && this.#resultBytes + (this.#inFlight.size + 1) * REPLY_LIMIT_BYTES > this.#maxResultBytes) await Promise.race(this.#inFlight);
        if (this.#halted()) return;
        if (this.#resultBytes + REPLY_LIMIT_BYTES > this.#maxResultBytes) {
          await this.#failRest(request.seq, (row) => unsentLine(row.id, row.custom_id, 'results_full'));
          return;
        }
        const key = await this.#currentKey();
        if (!key) {
          await this.#failRest(request.seq, (row) => failedLine(row.id, row.custom_id, unauthenticated(), null));
          return;
        }
        this.#track(this.#send(request, key));
      }
    }
  }

  #halted(): boolean {
    return this.#stopped.aborted || this.#leaseLost || this.#cut.signal.aborted || this.#services.now() >= this.#batch.expires_at;
  }

  #track(sending: Promise<void>): void {
    const tracked = sending.catch((error: unknown) => this.#services.logger.error({ err: error, batch: this.#batch.id }, 'batch request could not be recorded'))
      .finally(() => this.#inFlight.delete(tracked));
    this.#inFlight.add(tracked);
  }

  /**
   * The submitting key as it stands now: disabled, revoked, expired, or moved out of the batch's
   * workspace, it authorises nothing more.
   */
  async #currentKey(): Promise<KeyContext | null> {
    const key = await this.#services.keys.current(this.#batch.key_hash);
    if (!key || key.accountId !== this.#batch.account_id || key.workspaceId !== this.#batch.workspace_id) return null;
    return key;
  }

  /** One request through the pipeline's one entry, its state recorded before the hold and its line after the settlement. */
  async #send(request: BatchRequestRow, key: KeyContext): Promise<void> {
    const { store, pipeline } = this.#services;
    const generationId = newGenerationId();
    const lease = { accountId: this.#batch.account_id, holder: this.#services.holder, now: this.#services.now() };
    if (!request.body || !(await markSending(store, this.#batch.id, request.seq, generationId, lease))) {
      // another instance holds the account now (or took this request): this run sends nothing more
      this.#leaseLost = true;
      return;
    }
    const body = this.#seal.openBody(request.seq, request.body);
    const context = JSON.parse(this.#batch.submission) as SubmissionContext;
    const call = { key, generationId, signal: this.#cut.signal, restart: this.#services.restart, observer: QUIET };
    const dialect = DIALECTS[BATCH_ENDPOINTS[this.#batch.endpoint as BatchEndpoint]];
    let ended: { line: ResultLine; outcome: RequestOutcome };
    try {
      const answer = await runInference(pipeline, call, dialect, body, context.headers as HeaderBag);
      if (answer.type !== 'whole') throw new Error(`a batched ${dialect.name} request answered ${answer.type}`);
      ended = this.#answered(request, generationId, answer.reply);
    } catch (error) {
      // cut by the instance draining: left `sending` for whoever takes the account over (resent, as nothing was charged)
      if (this.#services.restart.aborted) return;
      ended = await this.#failed(request, generationId, error);
    }
    await this.#record(request, generationId, ended);
  }

  #answered(request: BatchRequestRow, generationId: string, reply: { status: number; body: unknown }): { line: ResultLine; outcome: RequestOutcome } {
    const line = answeredLine(request.id, request.custom_id, generationId, reply);
    if (Buffer.byteLength(JSON.stringify(reply.body)) <= REPLY_LIMIT_BYTES) return { line, outcome: 'completed' };
    const tooLarge = new GatewayError('payload_too_large', `The reply was larger than ${REPLY_LIMIT_BYTES} bytes, the most a batch keeps per request; it was charged under request_id`);
    return { line: failedLine(request.id, request.custom_id, tooLarge, generationId), outcome: 'failed' };
  }

  /** A request refused or failed: the live route's error; cut by a cancel: `batch_cancelled`, naming the charge if there was one. */
  async #failed(request: BatchRequestRow, generationId: string, error: unknown): Promise<{ line: ResultLine; outcome: RequestOutcome }> {
    if (this.#cut.signal.aborted && error instanceof GatewayError && error.code === 'client_timeout') {
      const charged = await this.#charged(generationId);
      const line = unsentLine(request.id, request.custom_id, 'batch_cancelled');
      if (charged && line.error) line.error.request_id = generationId;
      return { line, outcome: charged ? 'failed' : 'unsent' };
    }
    if (error instanceof GatewayError) return { line: failedLine(request.id, request.custom_id, error, generationId), outcome: 'failed' };
    this.#services.logger.error({ err: error, batch: this.#batch.id, generation: generationId }, 'batch request failed');
    return { line: failedLine(request.id, request.custom_id, new GatewayError('server', INTERNAL_ERROR_MESSAGE), generationId), outcome: 'failed' };
  }

  async #record(request: BatchRequestRow, generationId: string | null, ended: { line: ResultLine; outcome: RequestOutcome }): Promise<void> {
    const sealed = this.#seal.sealLine(request.seq, ended.line);
    if (await recordEnded(this.#services.store, this.#batch.id, request.seq, generationId, { result: sealed, outcome: ended.outcome })) {
      this.#resultBytes += Buffer.byteLength(JSON.stringify(ended.line)) + 1;
    }
  }

  /** Whether the generation was charged: settled (not pending) at a cost above zero. */
  async #charged(generationId: string): Promise<boolean> {
    const row = await this.#services.store.db.selectFrom('generations').select(['status', 'cost_units']).where('id', '=', generationId).executeTakeFirst();
    return row !== undefined && row.status !== 'pending' && BigInt(row.cost_units) > 0n;
  }

  /**
   * Requests a previous holder left being sent: one whose generation was charged lost its reply and
   * fails with type `server` naming the charge; one never charged is sent again; one still pending
   * is left to whoever settles it (its instance, or the reaper once it is declared dead).
   */
  async #settleTakenOver(): Promise<void> {
    const { store } = this.#services;
    for await (const page of requestPages(store.db, this.#batch.id, 'sending')) {
      for (const request of page) {
        const generationId = request.generation_id;
        if (generationId === null) continue;
        const row = await store.db.selectFrom('generations').select(['status', 'cost_units']).where('id', '=', generationId).executeTakeFirst();
        if (row?.status === 'pending') continue;
        if (row && BigInt(row.cost_units) > 0n) await this.#record(request, generationId, { line: lostReplyLine(request.id, request.custom_id, generationId), outcome: 'failed' });
        else await requeue(store, this.#batch.id, request.seq, generationId);
      }
    }
  }

  /** Fails every request still queued from `fromSeq` with the line `lineOf` gives, never sending them. */
  async #failRest(fromSeq: number, lineOf: (row: BatchRequestRow) => ResultLine): Promise<void> {
    for await (const page of requestPages(this.#services.store.db, this.#batch.id, 'queued')) {
      for (const request of page) {
        if (request.seq >= fromSeq) await this.#record(request, null, { line: lineOf(request), outcome: 'failed' });
      }
    }
  }

  /** What the lines recorded so far take in the results file (a batch taken over continues its count). */
  async #recordedBytes(): Promise<number> {
    let bytes = 0;
    for await (const page of requestPages(this.#services.store.db, this.#batch.id)) {
      for (const request of page) bytes += request.result ? BatchSeal.plainLength(request.result) + 1 : 0;
    }
    return bytes;
  }

  /** Reads the batch's status again; a cancel cuts the requests in flight at once. */
  async #refresh(): Promise<void> {
    const row = await readBatch(this.#services.store.db, this.#batch.id);
    if (!row) return;
    this.#batch = row;
    if (row.status === 'cancelling') this.#cut.abort();
  }

  /** Writes the results file (streamed from the sealed lines, unsent requests listed as `reason`), then ends the batch as `status`. */
  async #finish(status: 'completed' | 'failed' | 'expired' | 'cancelled', errorMessage?: string): Promise<void> {
    const { store, files, now } = this.#services;
    const unsent: UnsentReason = status === 'expired' ? 'batch_expired' : 'batch_cancelled';
    const file = await files.create(this.#lines(unsent), {
      accountId: this.#batch.account_id,
      filename: `${this.#batch.id}_results.jsonl`,
      purpose: 'batch_output',
      contentType: 'application/jsonl',
    });
    await store.write((tx) => moveBatch(tx, this.#batch.id, ['validating', 'in_progress', 'cancelling'], status, {
      finalized_at: now(),
      results_file_id: file.id,
      ...(errorMessage !== undefined && { error_message: errorMessage }),
    }));
    await clearRequests(store, this.#batch.id);
    this.#services.logger.info({ batch: this.#batch.id, status }, 'batch ended');
  }

  /** The results file's bytes, one line per request in submission order, read a page at a time. */
  async *#lines(unsent: UnsentReason): AsyncGenerator<Uint8Array> {
    for await (const page of requestPages(this.#services.store.db, this.#batch.id)) {
      const texts = page.map((request) => (request.result ? this.#seal.openLine(request.seq, request.result) : JSON.stringify(unsentLine(request.id, request.custom_id, unsent))));
      yield Buffer.from(`${texts.join('\n')}\n`, 'utf8');
    }
  }
}
