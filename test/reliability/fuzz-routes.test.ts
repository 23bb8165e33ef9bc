import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_ENGINES } from '../support/database-urls.js';
import { untilBatchesEnded } from './batch-settling.js';
import { buildCase, type FuzzCase } from './fuzz-case.js';
import { caseTitle, isRecorded, recordProblems, runCase, type CaseOutcome } from './fuzz-check.js';
import { knownDefectOf } from './known-defects.js';
import { ledgerProblem, untilSettled } from './ledger-check.js';
import { answeredByEach, answeredSince, instancesDown, spreadProblem } from './instance-spread.js';
import { inParallel } from './parallel.js';
import { startReliabilityHarness, type ReliabilityHarness } from './reliability-harness.js';
import { FUZZ_MODELS, ROUTE_SEEDS } from './route-corpus.js';
import { suiteSeed, type SeededRandom } from './seeded-random.js';

/**
 * Seeded fuzzing of every route: mutated bodies, bytes, headers, keys, methods and paths. Whatever
 * is sent, the gateway answers without a 500, in its route's error envelope, records every
 * authenticated refusal under its X-Generation-Id, charges nothing for it, and stays up.
 *
 * On the fleet the cases go to its three instances in turn, and each reply's record is read back
 * through whichever instance comes next.
 *
 * `RELIABILITY_SEED=<seed>` replays a run; `RELIABILITY_CASE=<index>` sends only that case of it;
 * `RELIABILITY_FUZZ_CASES=<n>` sets the number of cases on SQLite (a third of it on PostgreSQL and
 * on the fleet, each drawn from its own fork of the one seed).
 */

const random = suiteSeed('fuzz-routes');
const CREDITS = '1000';
const SQLITE_CASES = Number(process.env.RELIABILITY_FUZZ_CASES ?? 1_500);
const BATCH = 250;
const PARALLEL = 4;
const ONLY = process.env.RELIABILITY_CASE === undefined ? undefined : Number(process.env.RELIABILITY_CASE);

function batchesOf(count: number): Array<{ from: number; to: number }> {
  const batches: Array<{ from: number; to: number }> = [];
  for (let from = 0; from < count; from += BATCH) batches.push({ from, to: Math.min(from + BATCH, count) });
  return batches;
}

describe.each(DATABASE_ENGINES.map((engine) => ({ engine, random: random.fork() })))('fuzzed requests on $engine.name', ({ engine, random: engineRandom }: { engine: (typeof DATABASE_ENGINES)[number]; random: SeededRandom }) => {
  // PostgreSQL and the fleet record and settle the same cases over the network: a third of SQLite's count
  const count = engine.name === 'sqlite' ? SQLITE_CASES : Math.ceil(SQLITE_CASES / 3);
  let harness: ReliabilityHarness;
  let cases: FuzzCase[] = [];

  beforeAll(async () => {
    harness = await startReliabilityHarness({ engine, models: FUZZ_MODELS, credits: CREDITS });
    cases = Array.from({ length: count }, (_, index) => {
      const seed = engineRandom.pick(ROUTE_SEEDS);
      return buildCase(index, seed, engineRandom, seed.management ? harness.managementKey : harness.key);
    });
  });

  afterAll(async () => harness?.close());

  it.each(batchesOf(count))('cases $from to $to: no 500, every refusal enveloped, recorded and free, the books balanced, the process up', async ({ from, to }) => {
    const batch = cases.slice(from, to).filter((fuzz) => ONLY === undefined || fuzz.index === ONLY);
    const answeredBefore = await answeredByEach(harness);
    const outcomes = await inParallel(batch, PARALLEL, (fuzz) => runCase(harness, fuzz));
    await untilBatchesEnded(harness);
    await untilSettled(harness);
    const recorded = outcomes.filter(isRecorded);
    const recordFindings = await inParallel(recorded, PARALLEL, async (outcome) => ({ outcome, problems: await recordProblems(harness, outcome) }));
    const findings = [
      ...outcomes.flatMap((outcome: CaseOutcome) => outcome.problems.map((problem) => ({ fuzz: outcome.fuzz, problem }))),
      ...recordFindings.flatMap(({ outcome, problems: found }) => found.map((problem) => ({ fuzz: outcome.fuzz, problem }))),
    ];
    const known = findings.filter(({ fuzz, problem }) => knownDefectOf(engine.name, fuzz, problem));
    for (const { fuzz, problem } of known) console.warn(`known defect (${knownDefectOf(engine.name, fuzz, problem)?.name ?? ''}): ${caseTitle(fuzz)}: ${problem}`);
    const problems = findings.filter((finding) => !known.includes(finding)).map(({ fuzz, problem }) => `${caseTitle(fuzz)}: ${problem}`);
    const statuses = outcomes.reduce<Record<number, number>>((tally, { status }) => ({ ...tally, [status]: (tally[status] ?? 0) + 1 }), {});
    const oversized = batch.filter((fuzz) => fuzz.labels.some((label) => label.includes('8 MB'))).length;
    const answered = await answeredSince(harness, answeredBefore);
    console.info(`fuzz-routes on ${engine.name}, cases ${from} to ${to}: statuses ${JSON.stringify(statuses)}, ${recorded.length} records read back, ${oversized} bodies past 8 MB, requests answered by each instance ${answered.join('/')}`);
    expect(await instancesDown(harness), 'GET /api/v1/ of each instance after the batch').toEqual([]);
    // a replay of one case sends too few requests to reach every instance
    if (ONLY === undefined) expect(spreadProblem(answered)).toBeUndefined();
    expect(await ledgerProblem(harness, CREDITS)).toBeUndefined();
    expect(problems).toEqual([]);
  }, 180_000);
});
