import { createAccount } from '../../src/accounts/accounts.js';
import { parseUsd } from '../../src/billing/money.js';
import type { Harness, RawReply } from '../e2e/harness.js';
import { envelopeProblem } from './error-shape.js';
import { COMPLETION_PRICE, conversationRequest, PROMPT_PRICE, refusedStatusFor, REQUEST_PRICE, type ConversationCase } from './fault-matrix.js';
import { costOf, readGeneration, readLedger, untilSettled, type GenerationView } from './ledger-check.js';
import { streamEnding } from './stream-ending.js';

/** Credits of each case's own account: its balance moves by that case's charge alone. */
export const CASE_CREDITS = '5';

/** What a case's account, reply and record came to. */
export interface FaultReading {
  reply: RawReply;
  /** The body broke off before its end. */
  broken: boolean;
  record: GenerationView | undefined;
  recordStatus: number;
  /** What the account was charged: its credits less its balance. */
  charged: bigint;
  reserved: bigint;
}

/** One POST whose body may break off (a relayed body that stops early): what arrived, and whether it broke. */
async function tolerantPost(harness: Harness, path: string, body: unknown, key: string): Promise<{ reply: RawReply; broken: boolean }> {
  const response = await fetch(`${harness.baseUrl}${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  let text = '';
  let broken = false;
  try {
    text = await response.text();
  } catch {
    broken = true;
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { reply: { status: response.status, headers: response.headers, text, json }, broken };
}

/** Sends `body` to `path` from an account of its own and reads back the reply, the record and the money. */
export async function runOnOwnAccount(harness: Harness, path: string, body: unknown): Promise<FaultReading> {
  const account = await createAccount(harness.gateway.store, { name: 'fault', creditsUsd: CASE_CREDITS });
  const { reply, broken } = await tolerantPost(harness, path, body, account.key);
  await untilSettled(harness, account.accountId);
  const read = await readGeneration(harness, reply.headers.get('x-generation-id') ?? '', account.key);
  const ledger = await readLedger(harness, account.accountId);
  return { reply, broken, record: read.data, recordStatus: read.status, charged: parseUsd(CASE_CREDITS) - ledger.balance, reserved: ledger.reserved };
}

/** The charge for the counts a record names, at the fault models' token prices. */
export function tokenCost(record: GenerationView): bigint {
  return parseUsd(PROMPT_PRICE) * BigInt(record.tokens_prompt ?? 0) + parseUsd(COMPLETION_PRICE) * BigInt(record.tokens_completion ?? 0);
}

function expectedStatus(subject: ConversationCase): number {
  const { fault, stream } = subject;
  if (fault.kind === 'error') return refusedStatusFor(fault.at);
  if (fault.kind === 'fail_after' || fault.kind === 'disconnect_after' || fault.kind === 'malformed') return stream && fault.at > 0 ? 200 : 502;
  return 200;
}

function errorMetadata(json: unknown): Record<string, unknown> {
  const error = (json as { error?: { metadata?: unknown } } | undefined)?.error;
  return typeof error?.metadata === 'object' && error.metadata !== null ? (error.metadata as Record<string, unknown>) : {};
}

/** A refusal before the answer: the route's envelope with the provider's diagnostics, an error record, nothing charged. */
function refusalProblems(subject: ConversationCase, reading: FaultReading, path: string, payload: string): string[] {
  const problems: string[] = [];
  const { reply, record } = reading;
  const shape = envelopeProblem(path, reply, payload);
  if (shape) problems.push(`envelope: ${shape}`);
  const metadata = errorMetadata(reply.json);
  if (typeof metadata.provider_name !== 'string') problems.push('metadata names no provider_name');
  if (subject.fault.kind === 'error' && metadata.provider_status !== subject.fault.at) problems.push(`metadata.provider_status is ${String(metadata.provider_status)}`);
  if (record?.status !== 'error' || record.error?.code !== reply.status) problems.push(`record ${record?.status} ${JSON.stringify(record?.error)}`);
  if (reading.charged !== 0n) problems.push(`charged ${reading.charged} for a refusal`);
  return problems;
}

/** A stream that failed after its answer began: an in-band error, billed for the tokens it produced. */
function midStreamProblems(subject: ConversationCase, reading: FaultReading): string[] {
  const ending = streamEnding(subject.dialect, reading.reply.text);
  const problems = [...ending.problems];
  const { record } = reading;
  if (!ending.error) return [...problems, 'no in-band error'];
  if (subject.dialect !== 'responses' && ending.error.code !== 502) problems.push(`in-band error code ${String(ending.error.code)}`);
  if (subject.fault.kind === 'disconnect_after' && !/closed before the answer finished/i.test(ending.error.message)) problems.push(`disconnect message ${ending.error.message}`);
  if (record?.status !== 'error' || record.error?.code !== 502) problems.push(`record ${record?.status} ${JSON.stringify(record?.error)}`);
  if (record?.tokens_completion !== subject.fault.at) problems.push(`record counts ${String(record?.tokens_completion)} completion tokens, ${subject.fault.at} were streamed`);
  if (record && costOf(record) !== tokenCost(record)) problems.push(`record cost ${record.cost_usd} is not its tokens at the prices`);
  if (record && costOf(record) <= 0n) problems.push('the tokens streamed before the failure are not billed');
  return problems;
}

/** A served answer (slow to start, or without usage): finished, recorded as success, charged what it reported. */
function servedProblems(subject: ConversationCase, reading: FaultReading): string[] {
  const problems: string[] = [];
  const { record } = reading;
  if (subject.stream) {
    const ending = streamEnding(subject.dialect, reading.reply.text);
    problems.push(...ending.problems);
    if (!ending.finished || ending.error) problems.push(`the stream did not finish: ${JSON.stringify(ending.error)}`);
  } else if (reading.reply.json === undefined) {
    problems.push('the reply is not JSON');
  }
  if (record?.status !== 'success') problems.push(`record ${record?.status} ${JSON.stringify(record?.error)}`);
  if (record && subject.fault.kind === 'no_usage') {
    if (record.tokens_prompt !== null || record.tokens_completion !== null) problems.push('counts nothing measured are not null');
    if (costOf(record) !== parseUsd(REQUEST_PRICE)) problems.push(`a reply without usage cost ${record.cost_usd}, not the request price`);
  } else if (record) {
    if (record.tokens_completion === null || record.tokens_prompt === null) problems.push('reported counts are missing');
    if (costOf(record) !== tokenCost(record) || costOf(record) <= 0n) problems.push(`cost ${record.cost_usd} is not the reported tokens at the prices`);
  }
  return problems;
}

/** Runs one fault case and lists how it departs from the spec (status, ending, record, charge). */
export async function judgeConversationFault(harness: Harness, subject: ConversationCase): Promise<string[]> {
  const { path, body } = conversationRequest(subject);
  const reading = await runOnOwnAccount(harness, path, body);
  const status = expectedStatus(subject);
  const problems: string[] = [];
  if (reading.reply.status !== status) problems.push(`status ${reading.reply.status}, expected ${status}: ${reading.reply.text.slice(0, 200)}`);
  if (!reading.record) problems.push(`GET /generation answered ${reading.recordStatus}`);
  if (reading.reserved !== 0n) problems.push(`${reading.reserved} still held`);
  if (reading.record && costOf(reading.record) !== reading.charged) problems.push(`the account was charged ${reading.charged}, the record says ${reading.record.cost_usd}`);
  if (reading.broken) problems.push('the body broke off');
  if (problems.length > 0 || !reading.record) return problems;
  if (status >= 300) return refusalProblems(subject, reading, path, JSON.stringify(body));
  if (subject.fault.kind === 'slow_first_token' || subject.fault.kind === 'no_usage') return servedProblems(subject, reading);
  return midStreamProblems(subject, reading);
}
