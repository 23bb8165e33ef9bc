import { formatUsd } from '../billing/money.js';
import { settleGeneration, type GenerationOutcome, type OutcomePricer, type Overrun } from '../billing/settlement.js';
import { GatewayError } from '../core/errors.js';
import { AllAttemptsFailed } from './executor.js';
import { unansweredError } from './outcome.js';
import type { PreparedInference } from './prepare.js';
import type { InferenceServices } from './services.js';

/** An admitted request whose charge could not be recorded (spec 02: 503 `server`, repeat). */
export function unrecordedError(): GatewayError {
  return new GatewayError('server_unavailable', 'The answer could not be recorded; repeat the request');
}

/** The services a settlement uses: the ledger, the log, the overrun counter it feeds, and the samples of a request no endpoint answered. */
export type SettlementServices = Pick<InferenceServices, 'ledger' | 'logger' | 'overruns' | 'samples'>;

/**
 * Settles the generation. When the ledger cannot (database unreachable) the failure is logged and
 * the charge is undefined: the reply then ends without its usage (or answers 503 when nothing was
 * sent yet), and the hold expires and is released by the reconciler, so nothing is charged twice.
 * A charge cut below the reported usage's price is counted per endpoint and logged.
 */
export async function settleOrLog(
  services: SettlementServices,
  prepared: PreparedInference,
  outcome: GenerationOutcome,
  price?: OutcomePricer,
): Promise<number | undefined> {
  try {
    return await settleGeneration(services.ledger, prepared.hold, outcome, {
      ...(price && { price }),
      onOverrun: (overrun) => noteOverrun(services, overrun),
    });
  } catch (error) {
    services.logger.error({ err: error, generation: outcome.generationId }, 'settlement failed');
    return undefined;
  }
}

/** An endpoint reported usage pricing above what the request was held for: counted, and one warning. */
function noteOverrun(services: Pick<SettlementServices, 'logger' | 'overruns'>, overrun: Overrun): void {
  services.overruns.record(overrun.endpointId, overrun.amount);
  services.logger.warn({
    endpoint: overrun.endpointId,
    generation: overrun.generationId,
    uncollected_usd: formatUsd(overrun.amount),
    reason: overrun.reasons.join(','),
  }, 'usage reported past the hold was not charged');
}

/** Settles a whole answer and returns its charge; a charge that could not be recorded is the 503. */
export async function settleOrRefuse(
  services: SettlementServices,
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
  services: SettlementServices,
  prepared: PreparedInference,
  outcome: GenerationOutcome,
  error: unknown,
): Promise<never> {
  if (!(error instanceof AllAttemptsFailed)) {
    await services.ledger.release(prepared.hold);
    throw error;
  }
  outcome.error = unansweredError(services.samples, outcome, error, prepared);
  await settleOrLog(services, prepared, outcome);
  throw outcome.error;
}
