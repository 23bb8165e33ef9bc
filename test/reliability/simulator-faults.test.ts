import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_ENGINES } from '../support/database-urls.js';
import { CONVERSATION_CASES, CONVERSATION_MODELS, type ConversationCase } from './fault-matrix.js';
import { judgeConversationFault } from './fault-judge.js';
import { judgeOperationFault, OPERATION_FAULTS, OPERATION_MODELS, operationTitle } from './operation-faults.js';
import { answeredByEach, answeredSince, instancesDown, spreadProblem } from './instance-spread.js';
import { inParallel } from './parallel.js';
import { startReliabilityHarness, type ReliabilityHarness } from './reliability-harness.js';
import { suiteSeed } from './seeded-random.js';

/**
 * Every simulator fault kind (error statuses before the first byte, failure mid-stream, a provider
 * that disconnects, malformed frames or bodies, a slow first token, usage omitted), on every
 * dialect over both upstream wires, streamed and not, and on speech, typed decisions, embeddings and
 * rerank: the status, the generation record and the charge are those of spec 01 "Errors" (billing
 * on failure). Each case runs on an account of its own, so its balance moves by its charge alone.
 * The cases are fixed; the seed only orders them. On the fleet the requests, and the reads of their
 * records, go to the three instances in turn.
 */

const random = suiteSeed('simulator-faults');
const PARALLEL = 6;

function caseTitle(subject: ConversationCase): string {
  return `${subject.dialect} over ${subject.wire}, ${subject.fault.keys}, ${subject.stream ? 'streamed' : 'whole'}`;
}

/** The cases in a seeded order, so neighbours differ from run to run and a replay is exact. */
function shuffled<T>(items: readonly T[], order = random.fork()): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = order.int(0, i);
    [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
  }
  return copy;
}

/**
 * On PostgreSQL and on the fleet, where only the recording, the settling and (on the fleet) the
 * instance that reads a record back differ, each fault kind runs streamed and whole once, on a
 * dialect and wire the seed picks; SQLite runs the whole matrix.
 */
function casesFor(engine: (typeof DATABASE_ENGINES)[number], order = random.fork()): ConversationCase[] {
  if (engine.name === 'sqlite') return CONVERSATION_CASES;
  const byFault = new Map<string, ConversationCase[]>();
  for (const subject of CONVERSATION_CASES) {
    const key = `${subject.fault.keys} ${String(subject.stream)}`;
    byFault.set(key, [...(byFault.get(key) ?? []), subject]);
  }
  return [...byFault.values()].map((candidates) => order.pick(candidates));
}

describe.each(DATABASE_ENGINES)('simulator faults on $name', (engine) => {
  const cases = casesFor(engine);
  let harness: ReliabilityHarness;

  beforeAll(async () => {
    harness = await startReliabilityHarness({ engine, models: [...CONVERSATION_MODELS, ...OPERATION_MODELS] });
  });

  afterAll(async () => harness?.close());

  it(`${cases.length} conversation faults: status, in-band ending, record and charge as the spec says`, async () => {
    const answeredBefore = await answeredByEach(harness);
    const findings = await inParallel(shuffled(cases), PARALLEL, async (subject) =>
      (await judgeConversationFault(harness, subject)).map((problem) => `${caseTitle(subject)}: ${problem}`));
    // counted before the instances are asked whether they are up, so those requests do not count
    const answered = await answeredSince(harness, answeredBefore);
    expect(findings.flat()).toEqual([]);
    expect(await instancesDown(harness)).toEqual([]);
    expect(spreadProblem(answered)).toBeUndefined();
  }, 120_000);

  it(`${OPERATION_FAULTS.length} speech, typed-decision, embeddings and rerank faults: status, record and charge as the spec says`, async () => {
    const answeredBefore = await answeredByEach(harness);
    const findings = await inParallel(shuffled(OPERATION_FAULTS), PARALLEL, async (fault) =>
      (await judgeOperationFault(harness, fault)).map((problem) => `${operationTitle(fault)}: ${problem}`));
    // counted before the instances are asked whether they are up, so those requests do not count
    const answered = await answeredSince(harness, answeredBefore);
    expect(findings.flat()).toEqual([]);
    expect(await instancesDown(harness)).toEqual([]);
    expect(spreadProblem(answered)).toBeUndefined();
  }, 120_000);
});
