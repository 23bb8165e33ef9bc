import { UTC_DAYS } from './pricing-schema.js';
import type { PriceOverride } from './types.js';

const MINUTES_PER_DAY = 24 * 60;

export interface PriceMoment {
  /** Prompt tokens the price is for; undefined when unmeasured (no override applies then). */
  promptTokens?: number;
  now: Date;
}

/** True when the entry carries a UTC clock window or days: such entries apply after the others. */
export function isTimeWindow(override: PriceOverride): boolean {
  return override.utcStart !== undefined || override.utcEnd !== undefined || override.utcDays !== undefined;
}

/** `min_prompt_tokens` holds when the prompt is strictly longer; an entry without it always holds. */
export function promptConditionHolds(override: PriceOverride, promptTokens: number): boolean {
  return override.minPromptTokens === undefined || promptTokens > override.minPromptTokens;
}

/** Every condition of the entry matches: prompt length and the UTC window with its days. */
export function overrideApplies(override: PriceOverride, moment: PriceMoment): boolean {
  if (moment.promptTokens === undefined) return false;
  if (!promptConditionHolds(override, moment.promptTokens)) return false;
  return windowHolds(override, moment.now);
}

/**
 * The clock window `utc_start`..`utc_end` (start included, end excluded; equal ends mean the whole
 * day) may wrap midnight. `utc_days` names the day the window opens on, so the after-midnight part
 * of a Friday 22:00–06:00 window falls on Saturday morning.
 */
function windowHolds(override: PriceOverride, now: Date): boolean {
  const minute = now.getUTCHours() * 60 + now.getUTCMinutes();
  const today = now.getUTCDay();
  let openedOn = today;
  if (override.utcStart !== undefined && override.utcEnd !== undefined) {
    const start = clockMinutes(override.utcStart);
    const end = clockMinutes(override.utcEnd);
    if (start < end) {
      if (minute < start || minute >= end) return false;
    } else if (minute < start) {
      if (start !== end && minute >= end) return false;
      openedOn = (today + 6) % 7;
    }
  }
  if (override.utcDays === undefined) return true;
  const day = UTC_DAYS[openedOn];
  return day !== undefined && override.utcDays.includes(day);
}

function clockMinutes(hhmm: string): number {
  const minutes = Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(2, 4));
  return Math.min(minutes, MINUTES_PER_DAY);
}
