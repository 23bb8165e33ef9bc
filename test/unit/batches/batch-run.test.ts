import { describe, expect, it } from 'vitest';
import { pino } from 'pino';
import { createAccount } from '../../../src/accounts/accounts.js';
import { createKeyDirectory } from '../../../src/accounts/key-directory.js';
import { BatchRun } from '../../../src/batches/batch-run.js';
import { claimLease, readBatch, type BatchRow } from '../../../src/batches/batch-rows.js';
import { BatchService } from '../../../src/batches/batch-service.js';
import { readSubmission } from '../../../src/batches/submission.js';
import { generationRecord } from '../../../src/billing/generation-record.js';
import { createLedger } from '../../../src/billing/ledger.js';
import { newGenerationId } from '../../../src/core/generation-id.js';
import { createDatabaseBlobStore } from '../../../src/files/database-blob-store.js';
import { FileService } from '../../../src/files/file-service.js';
import type { Store } from '../../../src/store/store.js';
import { LiveEndpointState } from '../../../src/stats/endpoint-state.js';
import { MemoryOverrunCounter } from '../../../src/stats/overrun-counter.js';
import { chatCatalogue, endpoint } from '../../fixtures/planner/catalogue-yaml.js';
import { keyStoreOpener } from '../../support/key-store-engines.js';
import { STORE_ENGINES, storeOpener } from '../../support/store-engines.js';
import { AnsweringExecutor } from '../inference/answering-executor.js';

describe.each(STORE_ENGINES)('running a batch on $name', (engine) => {
  const openStore = storeOpener(engine);
  const openKeyStore = keyStoreOpener(engine);

  /** A batch of two chat requests, submitted and taken by a gateway, on a clock the test moves. */
  async function submitted() {
    const store = await openStore();
    const { keyStore } = await openKeyStore();
    const account = await createAccount(store, { name: 'batcher', creditsUsd: '10' });
    const keys = createKeyDirectory(store);
    const key = await keys.authenticate(account.key);
    if (!key) throw new Error('the key does not authenticate');
    const clock = { now: Date.now() };
    const now = () => clock.now;
    const files = new FileService({ store, blobs: createDatabaseBlobStore(store), keys: keyStore, maxUploadBytes: 10 * 1024 * 1024, now });
    const batches = new BatchService({ store, files, keys: keyStore, now });
    const messages = [{ role: 'user', content: 'Hi' }];
    const submission = readSubmission({ endpoint: '/v1/chat/completions', model: 'acme/chat', requests: [{ custom_id: 'first', body: { messages } }, { custom_id: 'second', body: { messages } }] });
    const { id } = await batches.submit(key, submission, {});
    const executor = new AnsweringExecutor();
    const ledger = createLedger(store);
    const services = {
      store,
      pipeline: {
        catalogue: { current: () => chatCatalogue(endpoint('alpha')) }, state: new LiveEndpointState(), ledger, checkpoints: { cadence: { tokens: 1, intervalMs: 0 }, record: async () => undefined, committed: async () => undefined },
        executor, overruns: new MemoryOverrunCounter(), logger: pino({ level: 'silent' }), samples: { record: () => undefined },
      },
      keys, dataKeys: keyStore, files, logger: pino({ level: 'silent' }), restart: new AbortController().signal, now, holder: 'inst_taker',
    };
    const run = async () => {
      if (!(await claimLease(store, account.accountId, 'inst_taker', now(), now() + 60_000))) throw new Error('the lease is taken');
      return new BatchRun(services, await batchRow(store, id), new AbortController().signal).run();
    };
    return { store, ledger, key, id, executor, run, files, batches, clock, services, accountId: account.accountId };
  }

  /** The same batch as a dead instance left it: in progress, its first request `sending` under `generationId`. */
  async function takenOver() {
    const context = await submitted();
    const generationId = newGenerationId();
    const { store, id } = context;
    await store.write((tx) => tx.updateTable('batches').set({ status: 'in_progress' }).where('id', '=', id).execute());
    await store.write((tx) => tx.updateTable('batch_requests').set({ state: 'sending', generation_id: generationId }).where('batch_id', '=', id).where('seq', '=', 0).execute());
    return { ...context, generationId };
  }

  async function batchRow(store: Store, id: string): Promise<BatchRow> {
    const row = await readBatch(store.db, id);
    if (!row) throw new Error(`no batch ${id}`);
    return row;
  }

  async function resultLines(files: FileService, accountId: string, fileId: string | null): Promise<Array<Record<string, { request_id?: string; type?: string } | null>>> {
    if (fileId === null) throw new Error('no results file');
    const chunks: Buffer[] = [];
    for await (const chunk of (await files.read(accountId, fileId)).content) chunks.push(chunk);
    return Buffer.concat(chunks).toString('utf8').trim().split('\n').map((line) => JSON.parse(line) as Record<string, { request_id?: string } | null>);
  }

  /** Holds and, when `cost` is given, settles the generation the dead instance was sending. */
  async function leftBehind(context: Awaited<ReturnType<typeof takenOver>>, cost?: bigint): Promise<void> {
    const { ledger, key, generationId } = context;
    const record = (pending: boolean, charged: bigint) => generationRecord({
      generationId, owner: key, asked: { model: 'acme/chat', streamed: false, attribution: {}, metadata: null },
      startedAt: Date.now(), estimatedPromptTokens: 3, pending, cost: charged, costLines: [],
    });
    const hold = await ledger.hold({ generationId, accountId: key.accountId, workspaceId: key.workspaceId, keyId: key.keyId, amount: 10n ** 20n, pending: record(true, 0n) });
    if (cost !== undefined) await ledger.settle(hold, record(false, cost));
  }

  it('a request charged whose line was never recorded is not sent again: it fails with type server naming the charge', async () => {
    const context = await takenOver();
    await leftBehind(context, 5n * 10n ** 18n);
    expect(await context.run()).toBe('ended');
    expect(context.executor.sent).toBe(1);
    const batch = await batchRow(context.store, context.id);
    expect(batch).toMatchObject({ status: 'completed', completed: 1, failed: 1 });
    const [first, second] = await resultLines(context.files, context.accountId, batch.results_file_id);
    expect(first).toMatchObject({ custom_id: 'first', response: null, error: { type: 'server', request_id: context.generationId } });
    expect(second).toMatchObject({ custom_id: 'second', error: null });
  });

  it('a request never charged (no generation, or one settled at nothing) is sent again under a new generation', async () => {
    const context = await takenOver();
    expect(await context.run()).toBe('ended');
    expect(context.executor.sent).toBe(2);
    const batch = await batchRow(context.store, context.id);
    expect(batch).toMatchObject({ status: 'completed', completed: 2, failed: 0 });
    const [first] = await resultLines(context.files, context.accountId, batch.results_file_id);
    expect(first?.response?.request_id).not.toBe(context.generationId);

    const settledAtNothing = await takenOver();
    await leftBehind(settledAtNothing, 0n);
    expect(await settledAtNothing.run()).toBe('ended');
    expect(settledAtNothing.executor.sent).toBe(2);
  });

  it('a request whose generation is still pending waits for whoever settles it, and the batch does not end meanwhile', async () => {
    const context = await takenOver();
    await leftBehind(context);
    expect(await context.run()).toBe('waiting');
    expect(context.executor.sent).toBe(1);
    const batch = await batchRow(context.store, context.id);
    expect(batch.status).toBe('in_progress');
    const first = await context.store.db.selectFrom('batch_requests').select(['state', 'generation_id']).where('batch_id', '=', context.id).where('seq', '=', 0).executeTakeFirst();
    expect(first).toEqual({ state: 'sending', generation_id: context.generationId });
  });
  it('past its 24-hour window the batch ends expired: nothing more is sent, what was not sent is listed batch_expired and counted in neither', async () => {
    const context = await submitted();
    context.clock.now += 24 * 60 * 60 * 1000;
    expect(await context.run()).toBe('ended');
    expect(context.executor.sent).toBe(0);
    const batch = await batchRow(context.store, context.id);
    expect(batch).toMatchObject({ status: 'expired', completed: 0, failed: 0 });
    const lines = await resultLines(context.files, context.accountId, batch.results_file_id);
    expect(lines.map((line) => line.error?.type)).toEqual(['batch_expired', 'batch_expired']);
  });

  it('48 hours after the batch ended its results are gone (results null, the file 404) while its status and counts remain', async () => {
    const context = await submitted();
    expect(await context.run()).toBe('ended');
    const read = () => context.batches.get(context.accountId, context.id);
    expect((await read()).results).toHaveLength(2);
    context.clock.now += 48 * 60 * 60 * 1000;
    const later = await read();
    expect(later).toMatchObject({ status: 'completed', request_counts: { total: 2, completed: 2, failed: 0 }, results: null });
    await expect(context.files.read(context.accountId, later.results_file_id ?? '')).rejects.toMatchObject({ code: 'not_found' });
  });
  it('an instance whose lease another took sends nothing more, and leaves the batch to it', async () => {
    const context = await submitted();
    const now = Date.now();
    expect(await claimLease(context.store, context.accountId, 'inst_other', now, now + 60_000)).toBe('taken');
    const services = context.services;
    expect(await new BatchRun(services, await batchRow(context.store, context.id), new AbortController().signal).run()).toBe('waiting');
    expect(context.executor.sent).toBe(0);
    expect((await batchRow(context.store, context.id)).status).toBe('in_progress');
    const states = await context.store.db.selectFrom('batch_requests').select('state').where('batch_id', '=', context.id).execute();
    expect(states.map((row) => row.state)).toEqual(['queued', 'queued']);
  });
});
