import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { catalogueYaml } from '../e2e/harness.js';
import { invariantBreaches, ledgerSnapshot } from '../reliability/ledger-snapshot.js';
import { PRIVATE_POSTGRES_AVAILABLE, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.js';
import { REDIS_REACHABLE, TEST_REDIS_URL } from '../support/redis.js';
import { askChat, fleetClient, type ChatOutcome } from './fleet-client.js';
import { spawnProcessFleet, type ProcessFleet } from './fleet-processes.js';

/**
 * The PostgreSQL server of three instances (child processes) restarted under a steady load of
 * chats: while it is down every request answers the 503 `server` with Retry-After, never 401 or
 * 500; once it is back every instance serves again, no hold is left behind, and every answer a
 * caller got is recorded and charged once. The server is a private cluster of the test's own.
 */

const MODEL = 'acme/chat';
const CHAT = { model: MODEL, messages: [{ role: 'user' as const, content: 'Hi' }], max_tokens: 4 };
/** Two callers per instance, each sending its next chat as soon as the last one answered. */
const CALLERS_PER_INSTANCE = 2;
/** Stale only after 20 s (the default): the outage is far shorter, so no live instance is taken for dead. */
const RECOVERY = { heartbeatMs: 500, staleAfterMs: 20_000, reapIntervalMs: 1_000 } satisfies Partial<RecoverySettings>;

interface Answer extends ChatOutcome {
  instance: number;
  at: number;
}

/** What the callers saw across the restart, and what stopped it early (an instance that died), if anything. */
interface RestartRun {
  answers: Answer[];
  problem?: string;
}

/**
 * Two callers per instance send chats back to back; once each instance has answered a 200, the
 * server stops (`pg_ctl stop -m fast`), stays down until each instance has answered the 503, and
 * starts again; the load goes on until each instance has answered a 200 again, and a moment more.
 */
async function restartUnderLoad(fleet: ProcessFleet, postgres: PrivatePostgres, key: string): Promise<RestartRun> {
  const answers: Answer[] = [];
  let loading = true;
  const callers = fleet.instances.flatMap((instance, index) => Array.from({ length: CALLERS_PER_INSTANCE }, async () => {
    const client = fleetClient(instance.url, key);
    while (loading) {
      answers.push({ ...(await askChat(client, CHAT)), instance: index, at: Date.now() });
      await sleep(10);
    }
  }));
  /** Waits until every instance answered `status` after `since`: the problem if one died first, or never did. */
  const seenOnEach = async (since: number, status: number, what: string): Promise<string | undefined> => {
    for (let round = 0; round < 600; round += 1) {
      const dead = fleet.instances.filter((instance) => !fleet.alive().includes(instance));
      if (dead.length > 0) {
        const crashes = dead.map((instance) => instance.logs.filter((line) => !line.startsWith('{')).slice(0, 12).join('\n'));
        return `${dead.length} of 3 instances died ${what}:\n${crashes.join('\n---\n')}`;
      }
      if (fleet.instances.every((_, index) => answers.some((answer) => answer.instance === index && answer.at > since && answer.status === status))) return undefined;
      await sleep(50);
    }
    return `not every instance answered ${status} ${what}`;
  };
  let problem: string | undefined;
  try {
    problem = await seenOnEach(0, 200, 'before the restart');
    if (problem) return { answers, problem };
    const stoppedAt = Date.now();
    await postgres.stop();
    problem = await seenOnEach(stoppedAt, 503, 'while PostgreSQL was down');
    const startedAt = Date.now();
    await postgres.start();
    problem ??= await seenOnEach(startedAt, 200, 'once PostgreSQL was back');
    // a little more load on the restarted server
    await sleep(500);
  } finally {
    loading = false;
    await Promise.all(callers);
  }
  return problem === undefined ? { answers } : { answers, problem };
}

describe.skipIf(!REDIS_REACHABLE || !PRIVATE_POSTGRES_AVAILABLE)('the PostgreSQL server of three instances restarted under load', () => {
  let sim: RunningSimulator;
  let postgres: PrivatePostgres;
  let store: Store;
  let fleet: ProcessFleet;
  let accountId: string;
  let run: RestartRun;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0 });
    postgres = await startPrivatePostgres();
    const databaseUrl = await postgres.createDatabase('fleet_data');
    const keyStoreUrl = await postgres.createDatabase('fleet_keys');
    store = await openStore(databaseUrl);
    fleet = await spawnProcessFleet({
      catalogue: catalogueYaml(sim.url, [{ id: MODEL, endpoints: [{ provider: 'sim-a', upstream_model: 'chat;tokens=2' }] }], {
        // the load stays far below the key's rate limit
        settings: { rate_limits: { per_key_per_minute: 100_000 } },
      }),
      databaseUrl, keyStoreUrl, redisUrl: TEST_REDIS_URL, recovery: RECOVERY,
    });
    const account = await createAccount(store, { name: 'fleet restart', creditsUsd: '100' });
    accountId = account.accountId;
    run = await restartUnderLoad(fleet, postgres, account.key);
    const refused = run.answers.filter((answer) => answer.status !== 200).length;
    console.log(`fleet postgres-restart: ${run.answers.length} chats, ${run.answers.length - refused} answered 200, ${refused} refused${run.problem ? `; ${run.problem.split('\n')[0]}` : ''}`);
  }, 60_000);

  afterAll(async () => {
    await fleet?.close();
    await store?.close();
    await sim?.close();
    await postgres?.close();
  });

  it('every instance lives through the restart and serves again once PostgreSQL is back', () => {
    expect(run.problem).toBeUndefined();
  });

  it('while it is down every request is the 503 server with Retry-After: never a 401, a 500 or a dropped connection', () => {
    const refused = run.answers.filter((answer) => answer.status !== 200);
    expect(refused.length).toBeGreaterThan(0);
    const unexpected = refused.filter((answer) => answer.status !== 503 || answer.errorType !== 'server' || answer.retryAfter === null);
    expect(unexpected.map(({ status, errorType, retryAfter, message }) => ({ status, errorType, retryAfter, message }))).toEqual([]);
  });

  it('leaves no hold behind: a settlement the database refused is tried again once it answers, within seconds, not when its hold expires', async () => {
    let ledger = await ledgerSnapshot(store, accountId);
    // settlements are tried again every second (SETTLEMENT_RETRY_MS); holds expire after 15 minutes
    for (let round = 0; round < 100 && ledger.holds.length > 0; round += 1) {
      await sleep(50);
      ledger = await ledgerSnapshot(store, accountId);
    }
    expect(ledger.holds).toEqual([]);
    expect(ledger.reserved).toBe(0n);
  });

  it('loses nothing: the ledger invariant holds and every 200 a caller got has its generation recorded, served and charged once', async () => {
    const ledger = await ledgerSnapshot(store, accountId);
    expect(invariantBreaches(ledger)).toEqual([]);
    const served = run.answers.filter((answer) => answer.status === 200).map((answer) => answer.generationId ?? 'none');
    expect(served.length).toBeGreaterThan(0);
    expect(new Set(served).size).toBe(served.length);
    const records = await store.db.selectFrom('generations').select(['id', 'status', 'cost_units']).where('id', 'in', served).execute();
    expect(records.map((record) => record.id).sort()).toEqual([...served].sort());
    for (const record of records) {
      expect(record.status, record.id).toBe('success');
      expect(ledger.charges.get(record.id), record.id).toEqual([BigInt(record.cost_units)]);
    }
  });
});
