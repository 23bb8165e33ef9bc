/**
 * The hold is the most a request may cost: billing is prepaid, so a charge never exceeds it, whatever
 * the endpoint reports. What is reported past it is recorded as uncollected, with the reasons:
 *
 * - `completion_over_ceiling`: output past the ceiling the request was held for is not billable.
 *   The completion is cut at the held ceiling (times the calls the hold covers); reasoning, generated
 *   first, is counted first.
 * - `over_hold`: whatever still prices above the hold (a prompt counted above the estimate, generated
 *   media the hold does not cover) is cut to the hold.
 *
 * The counts themselves stay as reported: only the charge is cut.
 */
import type { CoreUsage } from '../core/events.js';
import { minUnits, type Units } from './money.js';

export const UNCOLLECTED_REASONS = ['completion_over_ceiling', 'over_hold'] as const;

export type UncollectedReason = (typeof UNCOLLECTED_REASONS)[number];

/** What the reported usage priced above the charge, and why (in the order of UNCOLLECTED_REASONS). */
export interface Uncollected {
  amount: Units;
  reasons: UncollectedReason[];
}

export function isUncollectedReason(text: string): text is UncollectedReason {
  return (UNCOLLECTED_REASONS as readonly string[]).includes(text);
}

/** The usage to bill: output cut at `ceiling` tokens. The same object when nothing is past it. */
export function usageWithinCeiling(usage: CoreUsage, ceiling: number): CoreUsage {
  const completion = usage.completionTokens;
  const reasoning = usage.reasoningTokens;
  if ((completion ?? 0) <= ceiling && (reasoning ?? 0) <= ceiling) return usage;
  const billed: CoreUsage = { ...usage };
  if (completion !== undefined) billed.completionTokens = Math.min(completion, ceiling);
  if (reasoning !== undefined) billed.reasoningTokens = Math.min(reasoning, billed.completionTokens ?? ceiling);
  return billed;
}

/** The amounts a settlement compares: the usage as reported and as billable, both priced. */
export interface PricedUsage {
  /** The usage as the endpoint reported it. */
  reported: Units;
  /** The usage with its output cut at the held ceiling. */
  withinCeiling: Units;
}

export interface CappedCharge {
  charge: Units;
  /** Null when the whole reported usage was charged. */
  uncollected: Uncollected | null;
}

/** The charge: the billable usage's price, at most the hold; the rest of the reported price goes uncollected. */
export function capCharge(priced: PricedUsage, hold: Units): CappedCharge {
  const charge = minUnits(priced.withinCeiling, hold);
  const reasons: UncollectedReason[] = [];
  if (priced.withinCeiling < priced.reported) reasons.push('completion_over_ceiling');
  if (charge < priced.withinCeiling) reasons.push('over_hold');
  return { charge, uncollected: reasons.length === 0 ? null : { amount: priced.reported - charge, reasons } };
}
