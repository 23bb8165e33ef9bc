import { settleGeneration, type GenerationOutcome, type OutcomePricer } from '../billing/settlement.js';
import { GatewayError } from '../core/errors.js';
import { AllAttemptsFailed } from './executor.js';
import { unansweredError } from './outcome.js';
import type { PreparedInference } from './prepare.js';
import type { InferenceServices } from './services.js';

/** An admitted request whose charge could not be recorded (spec 02: 503 `server`, repeat). */
export function unrecordedError(): GatewayError {
  return new GatewayError('server_unavailable', 'The answer could not be recorded; repeat the request');
}

/**
 * Settles the generation. When the ledger cannot (database unreachable) the failure is logged and
 * the charge is undefined: the reply then ends without its usage (or answers 503 when nothing was
 * sent yet), and the hold expires and is released by the reconciler, so nothing is charged twice.
 */
export async function settleOrLog(
  services: Pick<InferenceServices, 'ledger' | 'logger'>,
  prepared: PreparedInference,
  outcome: GenerationOutcome,
  price?: OutcomePricer,
): Promise<number | undefined> {
  try {
    return await settleGeneration(services.ledger, prepared.hold, outcome, price);
  } catch (error) {
    services.logger.error({ err: error, generation: outcome.generationId }, 'settlement failed');
    return undefined;
  }
}

/** Settles a whole answer and returns its charge; a charge that could not be recorded is the 503. */
export async function settleOrRefuse(
  services: Pick<InferenceServices, 'ledger' | 'logger'>,
  prepared: PreparedInference,
  outcome: GenerationOutcome,
  price?: OutcomePricer,
): Promise<number> {
  const cost = await settleOrLog(services, prepared, outcome, price);
  if (cost === undefined) throw unrecordedError();
  return cost;
}

/**
 * Closes a request that got no answer: a failure of every endpoint (settled as an error costing
 * nothing, thrown as the caller's error), or a fault of the service itself (the hold released,
 * rethrown as is).
 */
export async function settleUnanswered(
  services: Pick<InferenceServices, 'ledger' | 'logger'>,
  prepared: PreparedInference,
  outcome: GenerationOutcome,
  error: unknown,
): Promise<never> {
  if (!(error instanceof AllAttemptsFailed)) {
    await services.ledger.release(prepared.hold);
    throw error;
  }
  outcome.error = unansweredError(outcome, error, prepared);
  await settleOrLog(services, prepared, outcome);
  throw outcome.error;
}
