import { rawReply, type Harness, type RawReply } from '../e2e/harness.js';
import { envelopeProblem } from './error-shape.js';
import type { FuzzCase } from './fuzz-case.js';
import { costOf, readGeneration } from './ledger-check.js';

/** Statuses whose refusals are not recorded as generations (spec: too cheap to record). */
const UNRECORDED_STATUSES = new Set([401, 429]);

/** A bound on one exchange, so a hung request is reported rather than stalling the run (not a timing assertion). */
const EXCHANGE_BOUND_MS = 30_000;

export interface CaseOutcome {
  fuzz: FuzzCase;
  status: number;
  generationId: string | null;
  problems: string[];
}

/** The case as a replayable line: its index, route and what was done to it. */
export function caseTitle(fuzz: FuzzCase): string {
  return `#${fuzz.index} ${fuzz.method} ${fuzz.path.slice(0, 60)} [${fuzz.labels.join('; ').slice(0, 300)}]`;
}

async function exchange(harness: Harness, fuzz: FuzzCase): Promise<RawReply> {
  const response = await fetch(`${harness.baseUrl}${fuzz.path}`, {
    method: fuzz.method,
    headers: fuzz.headers,
    ...(fuzz.payload !== undefined && { body: typeof fuzz.payload === 'string' ? fuzz.payload : new Uint8Array(fuzz.payload) as Uint8Array<ArrayBuffer> }),
    signal: AbortSignal.timeout(EXCHANGE_BOUND_MS),
  });
  return rawReply(response);
}

/** What must hold of every reply, whatever was sent. */
function replyProblems(fuzz: FuzzCase, reply: RawReply): string[] {
  const problems: string[] = [];
  if (reply.status === 500) problems.push(`500: ${reply.text.slice(0, 300)}`);
  if (reply.status >= 500 && !/"error_type":"(provider_unavailable|provider_error|no_route|provider_overloaded|timeout)"/.test(reply.text)) {
    problems.push(`${reply.status} is not a provider or routing failure: ${reply.text.slice(0, 300)}`);
  }
  const generationId = reply.headers.get('x-generation-id');
  if (fuzz.onRoute && fuzz.route.inference && !/^gen-[0-9a-z]+$/.test(generationId ?? '')) problems.push(`X-Generation-Id is ${String(generationId)}`);
  if (fuzz.onRoute && !fuzz.route.open && !fuzz.authenticated && reply.status !== 401) problems.push(`a request without the account's key answered ${reply.status}`);
  if (fuzz.onRoute && fuzz.authenticated && reply.status === 401) problems.push(`the account's own key was refused: ${reply.text.slice(0, 200)}`);
  if (reply.status >= 300) {
    const payload = typeof fuzz.payload === 'string' ? fuzz.payload : fuzz.payload === undefined ? undefined : Buffer.from(fuzz.payload).toString('utf8');
    const problem = envelopeProblem(fuzz.onRoute ? fuzz.route.path : '', reply, payload);
    if (problem) problems.push(`${reply.status} envelope: ${problem}`);
  }
  return problems;
}

/** Sends one case and judges its reply on its own; the record and the books are judged after the batch. */
export async function runCase(harness: Harness, fuzz: FuzzCase): Promise<CaseOutcome> {
  try {
    const reply = await exchange(harness, fuzz);
    return { fuzz, status: reply.status, generationId: reply.headers.get('x-generation-id'), problems: replyProblems(fuzz, reply) };
  } catch (error) {
    return { fuzz, status: 0, generationId: null, problems: [`no reply: ${String(error)} (${String((error as { cause?: unknown }).cause)})`] };
  }
}

/** Whether a reply's X-Generation-Id must read back through GET /generation. */
export function isRecorded(outcome: CaseOutcome): boolean {
  const { fuzz } = outcome;
  return fuzz.onRoute && fuzz.route.recorded && fuzz.authenticated && outcome.generationId !== null && !UNRECORDED_STATUSES.has(outcome.status);
}

/**
 * The generation behind a reply: a refusal is an error record with the reply's status, costing
 * nothing; an answer has a record.
 */
export async function recordProblems(harness: Harness, outcome: CaseOutcome): Promise<string[]> {
  const read = await readGeneration(harness, outcome.generationId ?? '');
  if (!read.data) return [`GET /generation?id=${String(outcome.generationId)} answered ${read.status}`];
  if (outcome.status < 300) return read.data.status === 'cancelled' ? ['a served request is recorded as cancelled'] : [];
  const problems: string[] = [];
  if (read.data.status !== 'error') problems.push(`refusal recorded with status ${read.data.status}`);
  if (read.data.error?.code !== outcome.status) problems.push(`refusal recorded with error ${JSON.stringify(read.data.error)}`);
  if (costOf(read.data) !== 0n) problems.push(`refusal charged ${read.data.cost_usd}`);
  return problems;
}
