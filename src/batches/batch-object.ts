import type { BatchRow, SubmissionContext } from './batch-rows.js';

/**
 * The batch object (spec 02 "Batch"), with OpenAI's batch members beside it where they do not
 * contradict the spec, so OpenAI's clients read it too: `output_file_id` is the results file,
 * `input_file_id` the uploaded JSONL it was read from (null for inline requests), and a timestamp
 * per state reached.
 */
export interface BatchObject {
  id: string;
  object: 'batch';
  endpoint: string;
  model: string | null;
  completion_window: '24h';
  status: string;
  created_at: number;
  expires_at: number;
  finalized_at: number | null;
  request_counts: { total: number; completed: number; failed: number };
  results_file_id: string | null;
  results: unknown[] | null;
  error: { message: string } | null;
  input_file_id: string | null;
  output_file_id: string | null;
  error_file_id: null;
  errors: null;
  in_progress_at: number | null;
  cancelling_at: number | null;
  completed_at: number | null;
  failed_at: number | null;
  expired_at: number | null;
  cancelled_at: number | null;
  metadata: Record<string, string> | null;
}

function seconds(ms: number | null): number | null {
  return ms === null ? null : Math.floor(ms / 1000);
}

/** The batch object of a row; `results` inline (only the single-batch read gives them). */
export function batchObject(row: BatchRow, results: unknown[] | null): BatchObject {
  const finalized = seconds(row.finalized_at);
  const endedAs = (status: string) => (row.status === status ? finalized : null);
  const context = JSON.parse(row.submission) as SubmissionContext;
  return {
    id: row.id,
    object: 'batch',
    endpoint: row.endpoint,
    model: row.model,
    completion_window: '24h',
    status: row.status,
    created_at: Math.floor(row.created_at / 1000),
    expires_at: Math.floor(row.expires_at / 1000),
    finalized_at: finalized,
    request_counts: { total: row.total, completed: row.completed, failed: row.failed },
    results_file_id: row.results_file_id,
    results,
    error: row.error_message === null ? null : { message: row.error_message },
    input_file_id: row.input_file_id,
    output_file_id: row.results_file_id,
    error_file_id: null,
    errors: null,
    in_progress_at: seconds(row.in_progress_at),
    cancelling_at: seconds(row.cancelling_at),
    completed_at: endedAs('completed'),
    failed_at: endedAs('failed'),
    expired_at: endedAs('expired'),
    cancelled_at: endedAs('cancelled'),
    metadata: context.metadata,
  };
}
