import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { parseUsd } from '../../src/billing/money.js';
import { countText } from '../../src/core/token-estimate.js';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import type { Store } from '../../src/store/store.js';
import { exited, type GatewayChild } from '../reliability/gateway-child.js';
import { invariantBreaches, ledgerSnapshot, type LedgerSnapshot } from '../reliability/ledger-snapshot.js';
import { seededRandom } from '../reliability/seeded-random.js';
import { REDIS_REACHABLE, TEST_REDIS_URL } from '../support/redis.js';
import { openHolds } from '../support/recorded-charges.js';
import { POSTGRES_REACHABLE } from '../support/store-engines.js';
import { fleetClient, streamChat, type StreamRead } from './fleet-client.js';
import { startFleetOnTestDatabase, type FleetOnTestDatabase, type ProcessFleet } from './fleet-processes.js';

/**
 * kill -9 of one of three instances (child processes, each as if on a machine of its own) while
 * streams run on all three: the two live ones, not a restart, find it gone by its stale heartbeat
 * and settle what it left pending (billed what its last checkpoint proves, never above the hold,
 * once), while their own streams run on to their normal end. The ledger's invariant holds before,
 * at, during and after. Which instance dies, how many streams each serves and when the kill comes
 * are drawn from a seed the file prints; FLEET_KILL_SEED=N replays one.
 */

const SEED = process.env.FLEET_KILL_SEED === undefined ? randomInt(2 ** 31) : Number(process.env.FLEET_KILL_SEED);
const MODEL = 'fleet/slow-chat';
const PRICES = { prompt: '0.000001', completion: '0.000002' };
const MAX_TOKENS = 1_000;
/** The dead instance's streams would last 20 s (1,000 tokens at 50 a second): the kill always comes first. */
const UPSTREAM = `chat;tps=50;tokens=${MAX_TOKENS}`;
/** The live instances' streams last 10 s (250 tokens at 25 a second): they run through the kill and the reaping. */
const LIVE_STORY = { model: MODEL, max_tokens: MAX_TOKENS, messages: [{ role: 'user' as const, content: 'Tell me a story. [[sim tps=25 tokens=250]]' }] };
const DOOMED_STORY = { model: MODEL, max_tokens: MAX_TOKENS, messages: [{ role: 'user' as const, content: 'Tell me a long story.' }] };

/**
 * A heartbeat four times a second, an instance stale after 3 s (twelve missed beats, so a live one
 * slowed by a loaded machine is not taken for dead), looked for four times a second, frequent
 * checkpoints.
 */
const RECOVERY = { heartbeatMs: 250, staleAfterMs: 3_000, reapIntervalMs: 250, checkpoint: { tokens: 8, intervalMs: 150 } } satisfies Partial<RecoverySettings>;
/**
 * The dead instance's last heartbeat is no later than its kill; a live instance sees it stale
 * `staleAfterMs` after that beat, at its next reap round at most `reapIntervalMs` later, and settles
 * its generations in that round. The slack covers the round itself and timers late on a loaded
 * 2-core machine (three gateways, the simulator and the test share it).
 */
const SLACK_MS = 2_500;
const REAP_BOUND_MS = RECOVERY.staleAfterMs + RECOVERY.reapIntervalMs + SLACK_MS;

interface PendingAtKill {
  id: string;
  completion_tokens: number | null;
  held_units: string | null;
}

interface GenerationView {
  status: string;
  cost_usd: string;
  tokens_completion: number | null;
  finish_reason: string | null;
}

/** Reads the account's ledger and fails the test, naming the moment, where its invariant breaks. */
function ledgerChecker(store: Store, accountId: string): (moment: string) => Promise<LedgerSnapshot> {
  return async (moment) => {
    const snapshot = await ledgerSnapshot(store, accountId);
    expect(invariantBreaches(snapshot), `ledger invariant ${moment} (seed ${SEED})`).toEqual([]);
    return snapshot;
  };
}

interface StreamsAcrossKill {
  /** Every stream, with the instance serving it. */
  reading: Array<{ instance: GatewayChild; read: Promise<StreamRead> }>;
  killedAt: number;
  doomedChunks: number;
}

/**
 * Opens `streamsOf` streams on each instance and kills `doomed` once every stream has begun and
 * the doomed ones delivered `killAfterChunks` chunks, checking the ledger every 40 of them; resolves
 * once the doomed process is gone. Were its streams to end first, the kill comes late and the test
 * says so.
 */
async function streamAcrossKill(options: {
  fleet: ProcessFleet; doomed: GatewayChild; streamsOf: Map<GatewayChild, number>; killAfterChunks: number; key: string;
  checked: (moment: string) => Promise<unknown>;
}): Promise<StreamsAcrossKill> {
  const { doomed } = options;
  const plan = options.fleet.instances.flatMap((instance) => Array.from({ length: options.streamsOf.get(instance) ?? 0 }, () => instance));
  const begun = new Set<number>();
  let doomedChunks = 0;
  let samples: Promise<unknown> = Promise.resolve();
  let killedAt = 0;
  const kill = () => {
    if (killedAt !== 0) return;
    killedAt = Date.now();
    doomed.child.kill('SIGKILL');
  };
  const reading = plan.map((instance, index) => ({
    instance,
    read: streamChat(fleetClient(instance.url, options.key), instance === doomed ? DOOMED_STORY : LIVE_STORY, () => {
      begun.add(index);
      if (instance === doomed) {
        doomedChunks += 1;
        if (doomedChunks % 40 === 0) samples = samples.then(() => options.checked(`after ${doomedChunks} chunks of the doomed instance`));
      }
      if (begun.size === plan.length && doomedChunks >= options.killAfterChunks) kill();
    }),
  }));
  await Promise.race([exited(doomed.child), Promise.all(reading.filter((stream) => stream.instance === doomed).map((stream) => stream.read))]);
  expect(killedAt, 'the kill came while every stream ran').toBeGreaterThan(0);
  kill();
  await exited(doomed.child);
  await samples;
  return { reading, killedAt, doomedChunks };
}

/**
 * Polls until the dead instance has neither a hold nor a pending generation left, checking the
 * ledger each round; answers when that was first seen, or 0 if not by `giveUpAt`.
 */
async function untilReaped(store: Store, instanceId: string, giveUpAt: number, checked: (moment: string) => Promise<unknown>): Promise<number> {
  while (Date.now() <= giveUpAt) {
    await checked('while the dead instance is reaped');
    const holds = (await openHolds(store.db)).filter((hold) => hold.instance_id === instanceId);
    const pending = await store.db.selectFrom('generations').select('id').where('status', '=', 'pending').where('instance_id', '=', instanceId).execute();
    if (holds.length === 0 && pending.length === 0) return Date.now();
    await sleep(50);
  }
  return 0;
}

describe.skipIf(!POSTGRES_REACHABLE || !REDIS_REACHABLE)('one of three instances killed with streams open on all three', () => {
  let running: FleetOnTestDatabase;
  let store: Store;
  let fleet: ProcessFleet;

  beforeAll(async () => {
    console.log(`fleet instance-killed seed ${SEED} (replay with FLEET_KILL_SEED=${SEED})`);
    const endpoint = { provider: 'sim-a', upstream_model: UPSTREAM, context_length: 131_072, max_completion_tokens: 65_536, pricing: PRICES };
    running = await startFleetOnTestDatabase({ models: [{ id: MODEL, endpoints: [endpoint] }], redisUrl: TEST_REDIS_URL, recovery: RECOVERY });
    ({ store, fleet } = running);
  }, 60_000);

  afterAll(async () => {
    await running?.close();
  });

  it('the live instances settle the dead one\'s generations by staleness within the bound, billed within each hold, once, and their own streams end normally', async () => {
    const random = seededRandom(SEED);
    const doomed = fleet.instances[Math.floor(random() * 3)] as GatewayChild;
    const live = fleet.instances.filter((instance) => instance !== doomed);
    const streamsOf = new Map(fleet.instances.map((instance) => [instance, 2 + Math.floor(random() * 3)]));
    const killAfterChunks = 8 + Math.floor(random() * 200);
    const account = await createAccount(store, { name: 'fleet kill', creditsUsd: '1' });
    const checked = ledgerChecker(store, account.accountId);
    await checked('before the streams');

    // streams on all three; the kill once every stream has begun and the doomed ones delivered enough
    const { reading, killedAt, doomedChunks } = await streamAcrossKill({ fleet, doomed, streamsOf, killAfterChunks, key: account.key, checked });

    // at the kill: the invariant holds, and every stream the doomed instance admitted is pending with its checkpoint
    await checked('at the kill');
    const { heartbeat_at: lastBeat } = await store.db.selectFrom('instances').select('heartbeat_at').where('id', '=', doomed.instanceId).executeTakeFirstOrThrow();
    const pendingAtKill: PendingAtKill[] = await store.db.selectFrom('generations').select(['id', 'completion_tokens', 'held_units'])
      .where('status', '=', 'pending').where('instance_id', '=', doomed.instanceId).execute();
    const heldAtKill = (await openHolds(store.db)).filter((hold) => hold.instance_id === doomed.instanceId);
    const doomedReads = await Promise.all(reading.filter((stream) => stream.instance === doomed).map((stream) => stream.read));
    expect(doomedReads.every((read) => read.ending !== 'done'), 'a stream of the killed instance ended as if complete').toBe(true);
    const admitted = doomedReads.filter((read): read is StreamRead & { generationId: string } => read.generationId !== null);
    expect(admitted).toHaveLength(streamsOf.get(doomed) ?? 0);
    expect(pendingAtKill.map((row) => row.id).sort()).toEqual(admitted.map((read) => read.generationId).sort());
    expect(heldAtKill.map((row) => row.generation_id).sort()).toEqual(pendingAtKill.map((row) => row.id).sort());

    // the live instances find it stale and settle what it left: not before, and within the bound
    const settledSeenAt = await untilReaped(store, doomed.instanceId, killedAt + REAP_BOUND_MS + 5_000, checked);
    expect(settledSeenAt, `the dead instance's generations were never settled (seed ${SEED})`).toBeGreaterThan(0);
    const reapMs = settledSeenAt - killedAt;
    expect(reapMs, `settled ${reapMs} ms after the kill, beyond the bound of ${REAP_BOUND_MS} ms (seed ${SEED})`).toBeLessThanOrEqual(REAP_BOUND_MS);
    expect(settledSeenAt - lastBeat, 'settled before its heartbeat was stale').toBeGreaterThanOrEqual(RECOVERY.staleAfterMs);
    expect(await store.db.selectFrom('instances').select('id').where('id', '=', doomed.instanceId).execute()).toEqual([]);
    const afterReap = await checked('after the reaping');

    // each dead generation: billed what its checkpoint proves, within its hold, once
    const [reader] = live;
    if (!reader) throw new Error('no live instance');
    const recordOf = async (id: string): Promise<GenerationView> => {
      const reply = await fetch(`${reader.url}/api/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${account.key}` } });
      expect(reply.status, `GET /generation?id=${id}`).toBe(200);
      return ((await reply.json()) as { data: GenerationView }).data;
    };
    for (const row of pendingAtKill) {
      const record = await recordOf(row.id);
      const cost = parseUsd(record.cost_usd);
      const charges = afterReap.charges.get(row.id) ?? [];
      expect(record.status).toBe('error');
      expect(charges.length).toBeLessThanOrEqual(1);
      expect(charges[0] ?? 0n).toBe(cost);
      expect(cost).toBeLessThanOrEqual(BigInt(row.held_units ?? '0'));
      if (row.completion_tokens === null) {
        expect(cost).toBe(0n);
        continue;
      }
      expect(record.tokens_completion).toBe(row.completion_tokens);
      expect(cost).toBeGreaterThanOrEqual(parseUsd(PRICES.completion) * BigInt(row.completion_tokens));
      const client = admitted.find((read) => read.generationId === row.id);
      expect(row.completion_tokens).toBeLessThanOrEqual(countText(client?.text ?? ''));
    }

    // the live instances' streams, running all along, end as streams end and are charged once
    const liveReads = await Promise.all(reading.filter((stream) => stream.instance !== doomed).map((stream) => stream.read));
    for (const read of liveReads) expect({ ending: read.ending, finishReason: read.finishReason }).toEqual({ ending: 'done', finishReason: 'stop' });
    let final = await checked('once the live streams ended');
    for (let round = 0; round < 200 && final.holds.length > 0; round += 1) {
      await sleep(50);
      final = await checked('while the live streams settle');
    }
    expect(final.holds).toEqual([]);
    expect(final.reserved).toBe(0n);
    for (const read of liveReads) {
      const record = await recordOf(read.generationId ?? '');
      expect(record).toMatchObject({ status: 'success', finish_reason: 'stop' });
      expect(final.charges.get(read.generationId ?? '')).toEqual([parseUsd(record.cost_usd)]);
    }
    const billed = pendingAtKill.reduce((sum, row) => sum + (row.completion_tokens ?? 0), 0);
    console.log(`fleet instance-killed: seed ${SEED}, instance ${fleet.instances.indexOf(doomed)} killed after ${doomedChunks} of its chunks (drawn ${killAfterChunks}); ` +
      `streams ${[...streamsOf.values()].join('/')}; settled ${reapMs} ms after the kill (bound ${REAP_BOUND_MS} ms), ${billed} checkpointed tokens billed`);
  }, 60_000);
});
