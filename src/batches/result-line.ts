import type { GatewayError } from '../core/errors.js';

/** How a request that was never sent is listed when its batch ended (spec 02 "Batch result line"). */
export type UnsentReason = 'batch_cancelled' | 'batch_expired' | 'results_full';

/** One line of a batch's results: exactly one of `response` and `error` is set. */
export interface ResultLine {
  id: string;
  custom_id: string;
  response: { status_code: number; request_id: string; body: unknown } | null;
  error: { type: string; message: string; param: string | null; code: number | null; request_id: string | null } | null;
}

/** A request answered: the route's own reply, under the generation it was billed under. */
export function answeredLine(id: string, customId: string, generationId: string, reply: { status: number; body: unknown }): ResultLine {
  return { id, custom_id: customId, response: { status_code: reply.status, request_id: generationId, body: reply.body }, error: null };
}

/**
 * A request refused or failed with the error the live route would have answered: its `error_type`
 * as `type`, its status as `code`, the field it names as `param`, and the generation it was
 * recorded under (null when it was never sent).
 */
export function failedLine(id: string, customId: string, error: GatewayError, generationId: string | null): ResultLine {
  const field = error.metadata.field;
  return {
    id,
    custom_id: customId,
    response: null,
    error: { type: error.errorType, message: error.message, param: typeof field === 'string' ? field : null, code: error.status, request_id: generationId },
  };
}

const UNSENT_MESSAGES: Record<UnsentReason, string> = {
  batch_cancelled: 'The batch was cancelled before this request was sent',
  batch_expired: 'The batch\'s completion window closed before this request was sent',
  results_full: 'The results file had no room left for this request\'s reply; it was not sent',
};

/** A request the batch ended without sending: not charged, `code` null. */
export function unsentLine(id: string, customId: string, reason: UnsentReason): ResultLine {
  return { id, custom_id: customId, response: null, error: { type: reason, message: UNSENT_MESSAGES[reason], param: null, code: null, request_id: null } };
}

/**
 * A request that was charged but whose reply was never recorded (its instance died, or the cut came
 * after the charge): type `server`, naming the charge.
 */
export function lostReplyLine(id: string, customId: string, generationId: string): ResultLine {
  return {
    id,
    custom_id: customId,
    response: null,
    error: { type: 'server', message: 'The request was charged but its reply was not recorded; the charge is named in request_id', param: null, code: 500, request_id: generationId },
  };
}
