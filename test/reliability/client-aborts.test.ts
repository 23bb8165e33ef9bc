import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseUsd } from '../../src/billing/money.js';
import type { ModelSpec } from '../e2e/harness.js';
import { DATABASE_ENGINES } from '../support/database-urls.js';
import { abortRequest, abortTitle, leaveAt, type AbortRequest, type AbortResult } from './client-abort.js';
import { ledgerProblem, untilSettled } from './ledger-check.js';
import { answeredByEach, answeredSince, instancesDown, spreadProblem } from './instance-spread.js';
import { inParallel } from './parallel.js';
import { startReliabilityHarness, type ReliabilityHarness } from './reliability-harness.js';
import { suiteSeed, type SeededRandom } from './seeded-random.js';

/**
 * 100 callers who leave at random points (after a random delay, or after a random number of
 * chunks), streamed and not, over chat, messages, responses, speech and typed decisions. Every one
 * is recorded, as cancelled with 408 or, when the answer finished first, as a success; no hold is
 * left once all settle, and the books balance. On the fleet the callers go to its three instances in
 * turn.
 */

const random = suiteSeed('client-aborts');
const CREDITS = '100';
const ABORTS = 100;
const PARALLEL = 10;
const ABORTED = { code: 408, message: 'Request aborted client-side before it finished' };

const MODELS: ModelSpec[] = [
  { id: 'acme/chat', endpoints: [{ provider: 'sim-a', upstream_model: 'chat' }] },
  { id: 'acme/judge', endpoints: [{ provider: 'sim-c', upstream_model: 'judge;labels', supported_parameters: ['max_tokens', 'temperature', 'logprobs', 'top_logprobs'] }] },
  {
    id: 'acme/tts',
    endpoints: [{
      provider: 'sim-a', upstream_model: 'tts', input_modalities: ['text'], output_modalities: ['speech'], supported_parameters: [],
      speech_envelope: { voices: ['alloy'], codecs: ['wav'] }, pricing: { character: '0.00001' },
    }],
  },
];

interface Recorded {
  id: string;
  app_title: string | null;
  status: string;
  error_code: number | null;
  error_message: string | null;
  cost_units: string | number;
}

/** What must hold of the records of one request that left at its point. */
function recordProblems(subject: AbortRequest, result: AbortResult, records: Recorded[]): string[] {
  if (records.length !== 1) return [`${records.length} records`];
  const [record] = records as [Recorded];
  const cost = parseUsd(String(record.cost_units));
  if (result.completed && record.status !== 'success') return [`the whole answer arrived, yet it is recorded ${record.status} ${String(record.error_code)}`];
  if (record.status === 'success') return [];
  if (record.status !== 'cancelled') return [`recorded ${record.status} ${String(record.error_code)} ${String(record.error_message)}`];
  if (record.error_code !== ABORTED.code || record.error_message !== ABORTED.message) return [`cancelled with ${String(record.error_code)} ${String(record.error_message)}`];
  if (!subject.stream && cost !== 0n) return [`a whole answer its caller left was charged ${cost}`];
  return [];
}

describe.each(DATABASE_ENGINES.map((engine) => ({ engine, random: random.fork() })))('callers who leave, on $engine.name', ({ engine, random: engineRandom }: { engine: (typeof DATABASE_ENGINES)[number]; random: SeededRandom }) => {
  let harness: ReliabilityHarness;

  /** Generation ids whose credit was held: each must end in a record. */
  const held = new Set<string>();
  /** Requests whose key is being checked right now: the run is over only once none is. */
  let admitting = 0;

  beforeAll(async () => {
    harness = await startReliabilityHarness({ engine, models: MODELS, credits: CREDITS });
    // every instance's: on the fleet a caller's request may be admitted and held by any of them
    for (const { services } of harness.gateways) {
      const { ledger, keys } = services;
      const hold = ledger.hold.bind(ledger);
      ledger.hold = async (request) => {
        const taken = await hold(request);
        held.add(taken.generationId);
        return taken;
      };
      const authenticate = keys.authenticate.bind(keys);
      keys.authenticate = async (presented) => {
        admitting += 1;
        try {
          return await authenticate(presented);
        } finally {
          admitting -= 1;
        }
      };
    }
  });

  /** Reads the records once nothing is held, no key is being checked and the records stopped changing. */
  async function settledRows(): Promise<Recorded[]> {
    let previous = -1;
    for (let poll = 0; poll < 200; poll += 1) {
      await untilSettled(harness, harness.accountId, 20_000);
      const rows = (await harness.gateway.store.db
        .selectFrom('generations')
        .select(['id', 'app_title', 'status', 'error_code', 'error_message', 'cost_units'])
        .where('account_id', '=', harness.accountId)
        .execute()) as Recorded[];
      if (admitting === 0 && rows.length === previous) return rows;
      previous = rows.length;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error('the records never settled');
  }

  afterAll(async () => harness?.close());

  it(`${ABORTS} callers leaving at random points are each recorded as cancelled (408) or completed, and no hold is left`, async () => {
    const subjects = Array.from({ length: ABORTS }, (_, index) => abortRequest(index, `abort-${engine.name}`, engineRandom));
    const answeredBefore = await answeredByEach(harness);
    const results = await inParallel(subjects, PARALLEL, (subject) => leaveAt(`${harness.baseUrl}${subject.path}`, harness.key, subject));
    const rows = await settledRows();
    const recordedIds = new Set(rows.map((row) => row.id));
    const problems = [...held].filter((id) => !recordedIds.has(id)).map((id) => `${id}: credit was held but nothing recorded`);
    subjects.forEach((subject, index) => {
      const records = rows.filter((row) => row.app_title === subject.title);
      problems.push(...recordProblems(subject, results[index] as AbortResult, records).map((problem) => `${abortTitle(subject)}: ${problem}`));
    });
    const outcomes = rows.reduce<Record<string, number>>((tally, row) => ({ ...tally, [row.status]: (tally[row.status] ?? 0) + 1 }), {});
    const answered = await answeredSince(harness, answeredBefore);
    console.info(`client-aborts on ${engine.name}: ${JSON.stringify(outcomes)}, requests answered by each instance ${answered.join('/')}`);
    expect(problems).toEqual([]);
    expect(await ledgerProblem(harness, CREDITS)).toBeUndefined();
    expect(await instancesDown(harness)).toEqual([]);
    expect(spreadProblem(answered)).toBeUndefined();
  }, 120_000);
});
