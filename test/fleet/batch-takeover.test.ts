import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type OpenAI from 'openai';
import type { Batch } from 'openai/resources/batches';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import type { Store } from '../../src/store/store.js';
import { invariantBreaches, ledgerSnapshot } from '../reliability/ledger-snapshot.js';
import { seededRandom } from '../reliability/seeded-random.js';
import { REDIS_REACHABLE, TEST_REDIS_URL } from '../support/redis.js';
import { POSTGRES_REACHABLE } from '../support/store-engines.js';
import { fleetClient } from './fleet-client.js';
import { startFleetOnTestDatabase, type FleetOnTestDatabase, type ProcessFleet } from './fleet-processes.js';

/**
 * kill -9 of the instance running a batch, one of three child processes on one database and key
 * store: once its lease lapses a live instance takes the account over (requests the dead one left
 * pending wait for the live ones to find it stale and settle them), and the batch completes with
 * one line per request, nothing charged twice, every hold released, the ledger's invariant intact.
 * Driven by the official `openai` client (files.create, batches.create, files.content). Each
 * request's delay at the simulator and the moment of the kill are drawn from a seed the file
 * prints; FLEET_BATCH_SEED=N replays one.
 */

const SEED = process.env.FLEET_BATCH_SEED === undefined ? randomInt(2 ** 31) : Number(process.env.FLEET_BATCH_SEED);
const MODEL = 'acme/chat';
const REQUESTS = 40;
/**
 * A short lease renewed every 100 ms, an instance stale after 3 s (twelve missed heartbeats): the
 * takeover comes within seconds, and the requests the dead one left in flight are settled by then.
 */
const RECOVERY = { batchLeaseMs: 1_500, batchPollMs: 100, heartbeatMs: 250, staleAfterMs: 3_000, reapIntervalMs: 250 } satisfies Partial<RecoverySettings>;

interface OutputLine {
  custom_id: string;
  response: { status_code: number; request_id: string } | null;
  error: { type: string; request_id: string | null } | null;
}

async function untilEnded(client: OpenAI, id: string): Promise<Batch> {
  for (;;) {
    const batch = await client.batches.retrieve(id);
    if (['completed', 'failed', 'expired', 'cancelled'].includes(batch.status)) return batch;
    await sleep(100);
  }
}

/** How many of the batch's requests have their line recorded. */
async function recordedLines(store: Store, batchId: string): Promise<number> {
  return (await store.db.selectFrom('batch_requests').select('seq').where('batch_id', '=', batchId).where('state', 'in', ['settled', 'failed']).execute()).length;
}

describe.skipIf(!POSTGRES_REACHABLE || !REDIS_REACHABLE)('the instance running a batch killed, with two instances left', () => {
  let running: FleetOnTestDatabase;
  let store: Store;
  let fleet: ProcessFleet;

  beforeAll(async () => {
    console.log(`fleet batch-takeover seed ${SEED} (replay with FLEET_BATCH_SEED=${SEED})`);
    running = await startFleetOnTestDatabase({
      models: [{ id: MODEL, endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=4' }] }], redisUrl: TEST_REDIS_URL, recovery: RECOVERY,
    });
    ({ store, fleet } = running);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
  });

  it('a live instance takes the account over once the lease lapsed: one line per request in order, nothing charged twice, every hold released', async () => {
    const random = seededRandom(SEED);
    const account = await createAccount(store, { name: 'fleet batch', creditsUsd: '10' });
    const submitter = fleet.instances[Math.floor(random() * 3)];
    if (!submitter) throw new Error('no instance');
    const requests = Array.from({ length: REQUESTS }, (_, index) => ({
      custom_id: `q-${index}`,
      method: 'POST',
      url: '/v1/chat/completions',
      body: { model: MODEL, max_tokens: 16, messages: [{ role: 'user', content: `Question ${index} [[sim ttft=${300 + Math.floor(random() * 900)}]]` }] },
    }));
    const client = fleetClient(submitter.url, account.key);
    const input = await client.files.create({ file: new File([requests.map((request) => JSON.stringify(request)).join('\n')], 'questions.jsonl'), purpose: 'batch' });
    const submitted = await client.batches.create({ input_file_id: input.id, endpoint: '/v1/chat/completions', completion_window: '24h' });

    // the kill comes while at least two requests are still queued (8 are in flight at most)
    const killAfter = 1 + Math.floor(random() * (REQUESTS - 10));
    while ((await recordedLines(store, submitted.id)) < killAfter) await sleep(5);
    const { holder } = await store.db.selectFrom('batch_leases').select('holder').where('account_id', '=', account.accountId).executeTakeFirstOrThrow();
    const doomed = fleet.instances.find((instance) => instance.instanceId === holder);
    if (!doomed) throw new Error(`the lease is held by ${holder}, none of the fleet`);
    const killedAt = Date.now();
    await fleet.kill(doomed);
    const atKill = await recordedLines(store, submitted.id);
    const { expires_at: leaseLapses } = await store.db.selectFrom('batch_leases').select('expires_at').where('account_id', '=', account.accountId).executeTakeFirstOrThrow();
    expect(invariantBreaches(await ledgerSnapshot(store, account.accountId)), `ledger at the kill (seed ${SEED})`).toEqual([]);

    const [reader] = fleet.alive();
    if (!reader) throw new Error('no live instance');
    const liveClient = fleetClient(reader.url, account.key);
    const ended = await untilEnded(liveClient, submitted.id);
    expect(ended.status).toBe('completed');
    const lines = (await (await liveClient.files.content(ended.output_file_id ?? '')).text()).trim().split('\n').map((text) => JSON.parse(text) as OutputLine);

    // one line per request, in submission order: answered, or a lost reply naming its charge
    expect(lines.map((line) => line.custom_id)).toEqual(requests.map((request) => request.custom_id));
    for (const line of lines) {
      if (line.response) expect(line.response.status_code, JSON.stringify(line)).toBe(200);
      else expect(line.error, JSON.stringify(line)).toMatchObject({ type: 'server', request_id: expect.stringMatching(/^gen-/) });
    }
    const answered = lines.filter((line) => line.response !== null).length;
    expect(ended.request_counts).toEqual({ total: REQUESTS, completed: answered, failed: REQUESTS - answered });

    // nothing charged twice, every charge named by a line, every hold released
    const named = lines.map((line) => line.response?.request_id ?? line.error?.request_id ?? '');
    expect(new Set(named).size).toBe(REQUESTS);
    const ledger = await ledgerSnapshot(store, account.accountId);
    expect(invariantBreaches(ledger), `ledger at the end (seed ${SEED})`).toEqual([]);
    expect(ledger.holds).toEqual([]);
    expect(ledger.reserved).toBe(0n);
    const charged = [...ledger.charges].filter(([, amounts]) => amounts.some((amount) => amount > 0n)).map(([id]) => id);
    expect(charged.filter((id) => !named.includes(id)), `charges no line names (seed ${SEED})`).toEqual([]);
    const costs = await store.db.selectFrom('generations').select(['id', 'status', 'cost_units']).where('id', 'in', named).execute();
    expect(costs).toHaveLength(REQUESTS);
    expect(ledger.deposits - ledger.balance).toBe(costs.reduce((sum, row) => sum + BigInt(row.cost_units), 0n));
    expect(await store.db.selectFrom('generations').select('id').where('account_id', '=', account.accountId).where('status', '=', 'pending').execute()).toEqual([]);

    // a live instance sent the rest, and only once the dead one's lease had lapsed
    const sentAfter = await store.db.selectFrom('generations').select(['instance_id', 'created_at'])
      .where('account_id', '=', account.accountId).where('instance_id', '!=', doomed.instanceId).execute();
    expect(sentAfter.length).toBeGreaterThan(0);
    for (const row of sentAfter) expect(row.created_at).toBeGreaterThanOrEqual(leaseLapses);
    expect(fleet.alive().map((instance) => instance.instanceId)).toEqual(expect.arrayContaining([...new Set(sentAfter.map((row) => row.instance_id))]));
    // and counted the takeover in its metrics
    const takeovers = await Promise.all(fleet.alive().map(async (instance) => {
      const metrics = await (await fetch(`${instance.url}/metrics`)).text();
      return Number(/^switchyard_batch_lease_takeovers_total (\d+)$/m.exec(metrics)?.[1] ?? 0);
    }));
    expect(takeovers.reduce((sum, count) => sum + count, 0)).toBeGreaterThanOrEqual(1);
    console.log(`fleet batch-takeover: seed ${SEED}, instance ${fleet.instances.indexOf(doomed)} killed after ${atKill} of ${REQUESTS} lines (drawn ${killAfter}); ` +
      `${answered} answered, ${REQUESTS - answered} lost replies, ${sentAfter.length} sent after the takeover; completed ${Date.now() - killedAt} ms after the kill`);
  }, 60_000);
});
