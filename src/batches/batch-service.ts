import type { KeyContext } from '../accounts/types.js';
import { GatewayError, invalidRequest } from '../core/errors.js';
import { randomHex } from '../core/random-hex.js';
import { readAttribution, type HeaderBag } from '../dialects/shared/request-headers.js';
import type { FileService } from '../files/file-service.js';
import { DATA_KEY_LIFETIME_MS, type KeyStore } from '../files/key-store.js';
import { DIALECTS } from '../inference/dialects.js';
import type { Store } from '../store/store.js';
import { batchObject, type BatchObject } from './batch-object.js';
import {
  ACTIVE_STATUSES, countActive, findBatch, insertBatch, listBatches, moveBatch,
  type BatchListQuery, type BatchRequestRow, type BatchRow, type SubmissionContext,
} from './batch-rows.js';
import { BatchSeal } from './batch-seal.js';
import { readInputFile } from './input-file.js';
import { failedLine } from './result-line.js';
import { BATCH_ENDPOINTS, type Submission, type SubmittedRequest } from './submission.js';

/** Spec 02 Limits: batches waiting or running per account; the completion window. */
export const BATCH_ACTIVE_LIMIT = 10;
export const COMPLETION_WINDOW_MS = 24 * 60 * 60 * 1000;

export interface BatchServiceOptions {
  store: Store;
  files: FileService;
  keys: KeyStore;
  now?: () => number;
  /** Told of every accepted batch (the runner of this instance takes it at once). */
  onSubmitted?: (accountId: string) => void;
}

/** One page of an account's batches. */
export interface BatchPage {
  data: BatchObject[];
  hasMore: boolean;
}

/**
 * The batches of every account: submission (the envelope checked as a whole, each body admitted by
 * its route's dialect and failing alone, everything sealed before it is stored), listing, reading
 * with the results inline while their file lives, and cancelling by the States table. An unknown,
 * malformed or another account's id is one 404.
 */
export class BatchService {
  readonly #store: Store;
  readonly #files: FileService;
  readonly #keys: KeyStore;
  readonly #now: () => number;
  readonly #onSubmitted: (accountId: string) => void;

  constructor(options: BatchServiceOptions) {
    this.#store = options.store;
    this.#files = options.files;
    this.#keys = options.keys;
    this.#now = options.now ?? Date.now;
    this.#onSubmitted = options.onSubmitted ?? (() => undefined);
  }

  /** Accepts a checked submission: 202 `validating`, nothing run or charged yet. */
  async submit(key: KeyContext, submission: Submission, headers: HeaderBag): Promise<BatchObject> {
    const requests = 'requests' in submission.source
      ? submission.source.requests
      : await readInputFile(this.#files, key.accountId, submission.source.inputFileId, submission.endpoint);
    const active = await countActive(this.#store.db, key.accountId);
    if (active >= BATCH_ACTIVE_LIMIT) throw tooManyActive(active);
    const context: SubmissionContext = { headers: attributionHeaders(headers), metadata: submission.metadata };
    const admitted = requests.map((request) => admitBody(submission, request, context.headers));
    const now = this.#now();
    const id = newBatchId(now);
    const dataKey = await this.#keys.create({ destroyAt: now + DATA_KEY_LIFETIME_MS });
    const seal = new BatchSeal(dataKey, id);
    const rows: BatchRequestRow[] = admitted.map((request, seq) => {
      const requestId = `breq_${randomHex(16)}`;
      if (!request.ok) {
        const line = failedLine(requestId, request.customId, request.error, null);
        return { batch_id: id, seq, id: requestId, custom_id: request.customId, state: 'failed', generation_id: null, body: null, result: seal.sealLine(seq, line), outcome: 'failed' };
      }
      return { batch_id: id, seq, id: requestId, custom_id: request.customId, state: 'queued', generation_id: null, body: seal.sealBody(seq, request.body), result: null, outcome: null };
    });
    const row: BatchRow = {
      id,
      account_id: key.accountId,
      workspace_id: key.workspaceId,
      key_hash: key.hash,
      key_id: dataKey.id,
      endpoint: submission.endpoint,
      model: submission.model,
      status: 'validating',
      submission: JSON.stringify(context),
      input_file_id: 'inputFileId' in submission.source ? submission.source.inputFileId : null,
      created_at: now,
      expires_at: now + COMPLETION_WINDOW_MS,
      in_progress_at: null,
      cancelling_at: null,
      finalized_at: null,
      total: rows.length,
      completed: 0,
      failed: rows.filter((request) => request.state === 'failed').length,
      error_message: null,
      results_file_id: null,
    };
    await this.#store.write(async (tx) => {
      // the cap holds under concurrent submissions: counted again where the batch is written
      const stillActive = await countActive(tx, key.accountId);
      if (stillActive >= BATCH_ACTIVE_LIMIT) throw tooManyActive(stillActive);
      await insertBatch(tx, row, rows);
    });
    this.#onSubmitted(key.accountId);
    return batchObject(row, null);
  }

  async list(accountId: string, query: BatchListQuery): Promise<BatchPage> {
    const rows = await listBatches(this.#store.db, accountId, query);
    return { data: rows.slice(0, query.limit).map((row) => batchObject(row, null)), hasMore: rows.length > query.limit };
  }

  /** The batch with its counts, and its result lines inline while the results file exists. */
  async get(accountId: string, id: string): Promise<BatchObject> {
    const row = await this.#find(accountId, id);
    return batchObject(row, await this.#results(row));
  }

  /**
   * Cancels by the States table: waiting or running → `cancelling` (dispatch stops, in-flight
   * requests are cut, and the runner ends it `cancelled`); `cancelling` or `cancelled` → unchanged;
   * an ended batch → 409.
   */
  async cancel(accountId: string, id: string): Promise<BatchObject> {
    const row = await this.#find(accountId, id);
    const moved = await this.#store.write((tx) => moveBatch(tx, row.id, ['validating', 'in_progress'], 'cancelling', { cancelling_at: this.#now() }));
    const now = moved ? await this.#find(accountId, id) : row;
    if (now.status === 'completed' || now.status === 'failed' || now.status === 'expired') {
      throw new GatewayError('conflict', `batch ${id} already ended (${now.status}) and cannot be cancelled`);
    }
    if (moved) this.#onSubmitted(accountId);
    return batchObject(now, null);
  }

  async #find(accountId: string, id: string): Promise<BatchRow> {
    const row = /^batch_[0-9a-f]{32}$/.test(id) ? await findBatch(this.#store.db, accountId, id) : undefined;
    if (!row) throw new GatewayError('not_found', 'No such batch');
    return row;
  }

  /** The lines of the batch's results file, or null once it expired (or before the batch ended). */
  async #results(row: BatchRow): Promise<unknown[] | null> {
    if (row.results_file_id === null || ACTIVE_STATUSES.includes(row.status as never)) return null;
    let content: AsyncIterable<Buffer>;
    try {
      content = (await this.#files.read(row.account_id, row.results_file_id)).content;
    } catch (error) {
      if (error instanceof GatewayError && error.code === 'not_found') return null;
      throw error;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of content) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8').split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as unknown);
  }
}

/** `batch_` and 32 hex characters, the first 12 the creation time, so ids sort by creation. */
function newBatchId(now: number): string {
  return `batch_${now.toString(16).padStart(12, '0').slice(-12)}${randomHex(10)}`;
}

function tooManyActive(active: number): GatewayError {
  return new GatewayError('rate_limit_exceeded', `At most ${BATCH_ACTIVE_LIMIT} batches may wait or run at once; ${active} do`, {
    metadata: { limit: BATCH_ACTIVE_LIMIT, active },
  });
}

/** The submission's attribution headers, which every request of the batch carries. */
function attributionHeaders(headers: HeaderBag): HeaderBag {
  const attribution = readAttribution(headers);
  return {
    ...(attribution.title !== undefined && { 'x-title': attribution.title }),
    ...(attribution.referer !== undefined && { 'http-referer': attribution.referer }),
  };
}

type AdmittedBody = { ok: true; customId: string; body: Record<string, unknown> } | { ok: false; customId: string; error: GatewayError };

/**
 * One body as the batch sends it: the batch's `model` and `provider` where it states none (a body
 * naming another model fails alone), then admitted by the route's dialect, with the error the live
 * route would answer.
 */
function admitBody(submission: Submission, request: SubmittedRequest, headers: HeaderBag): AdmittedBody {
  const { customId } = request;
  const body = { ...request.body };
  if (submission.model !== null) {
    if (body.model === undefined || body.model === null) body.model = submission.model;
    else if (body.model !== submission.model) {
      return { ok: false, customId, error: invalidRequest('model', `the batch runs ${JSON.stringify(submission.model)}; this body names ${JSON.stringify(body.model)}`) };
    }
  }
  if (submission.provider !== null && (body.provider === undefined || body.provider === null)) body.provider = submission.provider;
  const admission = DIALECTS[BATCH_ENDPOINTS[submission.endpoint]].admit(body, headers);
  return admission.ok ? { ok: true, customId, body } : { ok: false, customId, error: admission.error };
}
