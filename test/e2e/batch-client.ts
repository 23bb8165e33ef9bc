import { setTimeout as sleep } from 'node:timers/promises';
import { expect } from 'vitest';
import type { BatchObject } from '../../src/batches/batch-object.js';
import type { ResultLine } from '../../src/batches/result-line.js';
import { parseUsd } from '../../src/billing/money.js';

/** Where a batch test talks to a gateway: its API root (`…/api/v1`) and a key of the account. */
export interface BatchCaller {
  baseUrl: string;
  key: string;
}

/** The batch object as the routes answer it (spec 02 "Batch"), its result lines as they are read back. */
export type BatchView = Omit<BatchObject, 'results'> & { results: ResultLineView[] | null };

/** One line of a batch's results (spec 02 "Batch result line"), its reply body as JSON. */
export type ResultLineView = ResultLine & { response: { body: Record<string, unknown> } | null };

export interface BatchReply {
  status: number;
  json: unknown;
  text: string;
}

export const TERMINAL_STATUSES = ['completed', 'failed', 'expired', 'cancelled'];

/** One exchange with the gateway under `caller.key` (or `key`), JSON both ways. */
export async function exchange(caller: BatchCaller, request: { method?: string; path: string; body?: unknown; rawBody?: string; key?: string; headers?: Record<string, string> }): Promise<BatchReply> {
  const payload = request.rawBody ?? (request.body === undefined ? undefined : JSON.stringify(request.body));
  const response = await fetch(`${caller.baseUrl}${request.path}`, {
    method: request.method ?? (payload === undefined ? 'GET' : 'POST'),
    headers: {
      authorization: `Bearer ${request.key ?? caller.key}`,
      ...(payload !== undefined && { 'content-type': 'application/json' }),
      ...request.headers,
    },
    ...(payload !== undefined && { body: payload }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, json, text };
}

/** `POST /batches`. */
export function submitBatch(caller: BatchCaller, body: unknown, headers: Record<string, string> = {}): Promise<BatchReply> {
  return exchange(caller, { path: '/batches', body, headers });
}

/** `POST /batches`, expected to be accepted: the batch in `validating`. */
export async function acceptedBatch(caller: BatchCaller, body: unknown, headers: Record<string, string> = {}): Promise<BatchView> {
  const reply = await submitBatch(caller, body, headers);
  expect(reply.status, reply.text).toBe(202);
  return reply.json as BatchView;
}

export async function readBatch(caller: BatchCaller, id: string): Promise<BatchView> {
  const reply = await exchange(caller, { path: `/batches/${id}` });
  expect(reply.status, reply.text).toBe(200);
  return reply.json as BatchView;
}

/** Reads the batch until `done` holds of it (a wait, bounded by the test's own timeout). */
export async function batchUntil(caller: BatchCaller, id: string, done: (batch: BatchView) => boolean, pauseMs = 100): Promise<BatchView> {
  for (;;) {
    const batch = await readBatch(caller, id);
    if (done(batch)) return batch;
    await sleep(pauseMs);
  }
}

/** The batch once it ended (completed, failed, expired or cancelled). */
export function batchEnded(caller: BatchCaller, id: string): Promise<BatchView> {
  return batchUntil(caller, id, (batch) => TERMINAL_STATUSES.includes(batch.status));
}

/** The lines of a results file, read through `GET /files/{id}/content`. */
export async function resultLines(caller: BatchCaller, fileId: string): Promise<ResultLineView[]> {
  const reply = await exchange(caller, { path: `/files/${fileId}/content` });
  expect(reply.status, reply.text).toBe(200);
  expect(reply.text.endsWith('\n')).toBe(true);
  return reply.text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line) as ResultLineView);
}

/** A finished batch's results file, checked to be what `results` holds inline. */
export async function endedWithLines(caller: BatchCaller, id: string): Promise<{ batch: BatchView; lines: ResultLineView[] }> {
  const batch = await batchEnded(caller, id);
  expect(batch.results_file_id, `batch ${id} ended ${batch.status} without a results file`).toEqual(expect.any(String));
  const lines = await resultLines(caller, batch.results_file_id ?? '');
  expect(batch.results).toEqual(lines);
  return { batch, lines };
}

export interface GenerationView {
  id: string;
  status: string;
  model: string;
  cost_usd: string;
  app_title?: string | null;
  app_referer?: string | null;
  [member: string]: unknown;
}

export async function generation(caller: BatchCaller, id: string): Promise<GenerationView> {
  const reply = await exchange(caller, { path: `/generation?id=${encodeURIComponent(id)}` });
  expect(reply.status, `GET /generation?id=${id}: ${reply.text}`).toBe(200);
  return (reply.json as { data: GenerationView }).data;
}

/** Every generation a line names: the reply's, or the charge an error line names. */
export function namedGenerations(lines: readonly ResultLineView[]): string[] {
  return lines.flatMap((line) => {
    const id = line.response?.request_id ?? line.error?.request_id;
    return id ? [id] : [];
  });
}

/** What the generations the lines name cost, in 10^-24 USD, as GET /generation reports them. */
export async function costOfLines(caller: BatchCaller, lines: readonly ResultLineView[]): Promise<bigint> {
  let total = 0n;
  for (const id of namedGenerations(lines)) total += parseUsd((await generation(caller, id)).cost_usd);
  return total;
}

/** One chat body; `text` may carry `[[sim …]]` directives. */
export function chatBody(text: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'acme/chat', messages: [{ role: 'user', content: text }], ...extra };
}

/** Inline requests `{custom_id, body}` from custom ids and bodies. */
export function requestsOf(entries: ReadonlyArray<readonly [string, Record<string, unknown>]>): Array<{ custom_id: string; body: Record<string, unknown> }> {
  return entries.map(([customId, body]) => ({ custom_id: customId, body }));
}
