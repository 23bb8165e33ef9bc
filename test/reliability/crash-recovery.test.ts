import type { ChildProcess } from 'node:child_process';
import { randomInt } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/accounts/accounts.js';
import { STOPPED_BILLED_MESSAGE, STOPPED_UNBILLED_MESSAGE } from '../../src/billing/abandoned-generations.js';
import { parseUsd } from '../../src/billing/money.js';
import { countText } from '../../src/core/token-estimate.js';
import type { RecoverySettings } from '../../src/runtime/recovery-settings.js';
import { startGateway, type RunningGateway } from '../../src/runtime/gateway.js';
import { startSimulator, type RunningSimulator } from '../../src/sim/server.js';
import { openStore, type Store } from '../../src/store/store.js';
import { catalogueYaml } from '../e2e/harness.js';
import { freshPostgresDatabase, POSTGRES_REACHABLE } from '../support/store-engines.js';
import { exited, spawnGatewayProcess, type GatewayChild } from './gateway-child.js';
import { invariantBreaches, ledgerSnapshot, type LedgerSnapshot } from './ledger-snapshot.js';
import { seededRandom } from './seeded-random.js';
import { readChatStream, type StreamSeen } from './stream-reader.js';

/**
 * kill -9 of a gateway with streams open, then a restart on the same database: every admitted
 * generation reads back, what the last checkpoints prove was delivered is billed (never above
 * the hold), every hold is released at start-up rather than when it expires, and the ledger's
 * invariant holds before, at and after the crash. Each run draws its stream count and the moment
 * of the kill from a seed it prints; CRASH_SEED=N replays one.
 */

const SEED = process.env.CRASH_SEED === undefined ? randomInt(2 ** 31) : Number(process.env.CRASH_SEED);
const MODEL = 'crash/slow-chat';
/** Per token: what the generation records are priced at. */
const PRICES = { prompt: '0.000001', completion: '0.000002' };
const MAX_TOKENS = 1_000;
/** Streams pace 50 tokens a second and would last 20 s: the kill always comes first. */
const UPSTREAM = `chat;tps=50;tokens=${MAX_TOKENS}`;
/**
 * Frequent checkpoints, a heartbeat every second, and no reaping by staleness or by period during
 * the test: gone instances are settled by the restart's start-up round alone.
 */
const RECOVERY: Partial<RecoverySettings> = {
  checkpoint: { tokens: 8, intervalMs: 150 },
  heartbeatMs: 1_000,
  staleAfterMs: 600_000,
  reapIntervalMs: 600_000,
};

const STORY = { model: MODEL, max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'Tell me a long story.' }] };
/** 200 s at 5 tokens a second: still running when the test ends it. */
const SLOW_STORY = { ...STORY, messages: [{ role: 'user', content: 'Tell me a long story. [[sim tps=5]]' }] };

let sim: RunningSimulator;
let dir: string;
let configPath: string;

beforeAll(async () => {
  console.log(`crash-recovery seed ${SEED} (replay with CRASH_SEED=${SEED})`);
  sim = await startSimulator({ port: 0 });
  dir = await mkdtemp(join(tmpdir(), 'switchyard-crash-'));
  configPath = join(dir, 'catalogue.yaml');
  const endpoint = { provider: 'sim-a', upstream_model: UPSTREAM, context_length: 131_072, max_completion_tokens: 65_536, pricing: PRICES };
  await writeFile(configPath, catalogueYaml(sim.url, [{ id: MODEL, endpoints: [endpoint] }]));
});

afterAll(async () => {
  await sim?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

interface Database {
  url: string;
  drop(): Promise<void>;
}

const ENGINES: Array<{ name: string; database: () => Promise<Database>; bystander: boolean }> = [
  {
    name: 'sqlite',
    database: async () => ({ url: `sqlite:${join(dir, `crash-${Date.now()}.db`)}`, drop: async () => undefined }),
    // one SQLite file takes one gateway per process: a second instance runs on PostgreSQL only
    bystander: false,
  },
  ...(POSTGRES_REACHABLE ? [{ name: 'postgres', database: freshPostgresDatabase, bystander: true }] : []),
];

describe.each(ENGINES)('a gateway killed with streams open, restarted on $name', (engine) => {
  it('bills what the checkpoints prove was delivered, within each hold, once, and releases every hold at start-up', async () => {
    const random = seededRandom(SEED);
    const streams = 8 + Math.floor(random() * 9);
    const killAfterChunks = Math.floor(random() * streams * 40);
    const database = await engine.database();
    const store = await openStore(database.url);
    const running: RunningGateway[] = [];
    let child: ChildProcess | undefined;
    try {
      // credit for every hold (about 0.002 USD each), the bystander's included, and a little more
      const account = await createAccount(store, { name: 'crash', creditsUsd: (0.0025 * (streams + 1)).toFixed(4) });
      const checked = async (moment: string): Promise<LedgerSnapshot> => {
        const snapshot = await ledgerSnapshot(store, account.accountId);
        expect(invariantBreaches(snapshot), `ledger invariant ${moment} (seed ${SEED})`).toEqual([]);
        return snapshot;
      };

      // A live instance on the same database, with a (slower) stream of its own across the crash and restart.
      const bystander = engine.bystander ? await startQuietGateway(database.url) : undefined;
      if (bystander) running.push(bystander);
      const spawned = await spawnGateway(database.url);
      const bystanderCaller = new AbortController();
      const bystanderSettled = bystander ? nextSettlement(bystander) : undefined;
      const bystanderStream = bystander
        ? readChatStream({ url: bystander.url, key: account.key, body: SLOW_STORY, signal: bystanderCaller.signal })
        : undefined;
      child = spawned.child;
      let received = 0;
      let samples: Promise<unknown> = Promise.resolve();
      const kill = () => {
        if (child?.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      };
      const seen = await (async () => {
        const reading = Array.from({ length: streams }, () =>
          readChatStream({
            url: spawned.url,
            key: account.key,
            body: STORY,
            onChunk() {
              received += 1;
              if (received % 50 === 0) samples = samples.then(() => checked(`after ${received} chunks`));
              if (received >= killAfterChunks) kill();
            },
          }),
        );
        if (killAfterChunks === 0) kill();
        return Promise.all(reading);
      })();
      await exited(spawned.child);
      await samples;

      // At the crash: the invariant holds, and what the dead instance admitted is pending with its checkpoints.
      // A checkpoint the killed process had already sent may still land on PostgreSQL after its death:
      // the pending rows are read once they have stopped changing.
      const readPending = () => store.db
        .selectFrom('generations')
        .select(['id', 'completion_tokens', 'held_units'])
        .where('status', '=', 'pending')
        .where('instance_id', '=', spawned.instanceId)
        .orderBy('id')
        .execute();
      let pendingAtCrash = await readPending();
      for (;;) {
        await sleep(200);
        const again = await readPending();
        if (JSON.stringify(again) === JSON.stringify(pendingAtCrash)) break;
        pendingAtCrash = again;
      }
      const atCrash = await checked('at the crash');
      const admitted = seen.filter((stream): stream is StreamSeen & { generationId: string } => stream.status === 200 && stream.generationId !== null);
      const pendingIds = new Set(pendingAtCrash.map((row) => row.id));
      expect(admitted.every((stream) => pendingIds.has(stream.generationId))).toBe(true);
      // every stream that reached its caller was checkpointed at its commit, before its first byte
      const checkpointedIds = new Set(pendingAtCrash.filter((row) => row.completion_tokens !== null).map((row) => row.id));
      expect(admitted.filter((stream) => !checkpointedIds.has(stream.generationId))).toEqual([]);
      // on SQLite holds are kept in the serving process, and died with it; on PostgreSQL they are rows
      expect(atCrash.holds.length).toBe(engine.name === 'sqlite' ? 0 : pendingAtCrash.length + (bystander ? 1 : 0));

      // The restart settles the dead instance's generations before it serves.
      const restarted = await startQuietGateway(database.url);
      running.push(restarted);
      const afterRestart = await checked('after the restart');
      expect(afterRestart.holds.length).toBe(bystander ? 1 : 0);
      const recordOf = async (id: string) => {
        const reply = await fetch(`${restarted.url}/api/v1/generation?id=${id}`, { headers: { authorization: `Bearer ${account.key}` } });
        expect(reply.status, `GET /generation?id=${id}`).toBe(200);
        return ((await reply.json()) as { data: GenerationView }).data;
      };
      for (const row of pendingAtCrash) {
        const record = await recordOf(row.id);
        const checkpoint = row.completion_tokens;
        const charges = afterRestart.charges.get(row.id) ?? [];
        expect(record.status).toBe('error');
        expect(record.error?.code).toBe(500);
        expect(charges.length).toBeLessThanOrEqual(1);
        expect(charges[0] ?? 0n).toBe(parseUsd(record.cost_usd));
        expect(parseUsd(record.cost_usd)).toBeLessThanOrEqual(BigInt(row.held_units ?? '0'));
        if (checkpoint === null) {
          expect(record).toMatchObject({ cost_usd: '0', error: { message: STOPPED_UNBILLED_MESSAGE } });
        } else {
          // billed exactly what the last checkpoint recorded, never more than the client received
          expect(record).toMatchObject({ tokens_completion: checkpoint, error: { message: STOPPED_BILLED_MESSAGE } });
          expect(charges).toHaveLength(1);
          const client = admitted.find((stream) => stream.generationId === row.id);
          if (client) expect(checkpoint).toBeLessThanOrEqual(countText(client.text));
        }
      }
      for (const stream of admitted) await recordOf(stream.generationId);
      const checkpointed = pendingAtCrash.filter((row) => row.completion_tokens !== null);
      const billedTokens = checkpointed.reduce((sum, row) => sum + (row.completion_tokens ?? 0), 0);
      const receivedTokens = admitted.reduce((sum, stream) => sum + countText(stream.text), 0);
      console.log(
        `crash-recovery on ${engine.name}: seed ${SEED}, ${streams} streams, killed after ${received} chunks (drawn ${killAfterChunks}); ` +
          `${admitted.length} admitted, ${checkpointed.length} checkpointed, ${billedTokens} of ${receivedTokens} received tokens billed`,
      );

      // The credit is spendable again at once: a request needing half the balance is served.
      const probeTokens = Number(afterRestart.balance / 2n / parseUsd(PRICES.completion));
      const probe = await fetch(`${restarted.url}/api/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${account.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: MODEL, max_tokens: probeTokens, messages: [{ role: 'user', content: 'Quick one. [[sim tokens=2]]' }] }),
      });
      expect(probe.status).toBe(200);

      if (bystander && bystanderStream) {
        // The live instance was not taken for dead: its generation was still pending, and settles once.
        const bystanderId = (await store.db.selectFrom('generations').select('id').where('instance_id', '=', bystander.instanceId).executeTakeFirstOrThrow()).id;
        expect((await recordOf(bystanderId)).status).toBe('pending');
        bystanderCaller.abort();
        await bystanderStream;
        await bystanderSettled;
        await bystander.close();
        running.splice(running.indexOf(bystander), 1);
        expect((await recordOf(bystanderId)).status).toBe('cancelled');
      }
      const final = await checked('at the end');
      expect(final.holds).toEqual([]);
      expect(final.reserved).toBe(0n);
    } finally {
      if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      for (const gateway of running) await gateway.close();
      await store.close();
      await database.drop();
    }
  }, 120_000);
});

interface GenerationView {
  status: string;
  cost_usd: string;
  tokens_completion: number | null;
  error: { code: number; message: string } | null;
}

function startQuietGateway(databaseUrl: string): Promise<RunningGateway> {
  return startGateway({ configPath, databaseUrl, port: 0, watch: false, logger: pino({ level: 'silent' }), recovery: RECOVERY });
}

function spawnGateway(databaseUrl: string): Promise<GatewayChild> {
  return spawnGatewayProcess({ configPath, databaseUrl, recovery: RECOVERY });
}

/** Resolves once the gateway's ledger closed a hold (settled or released) for one of its own requests. */
function nextSettlement(gateway: RunningGateway): Promise<void> {
  const { ledger } = gateway.services;
  const settle = ledger.settle.bind(ledger);
  const release = ledger.release.bind(ledger);
  return new Promise((resolve) => {
    ledger.settle = async (hold, record) => {
      await settle(hold, record);
      resolve();
    };
    ledger.release = async (hold, record) => {
      await release(hold, record);
      resolve();
    };
  });
}
