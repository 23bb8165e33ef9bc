import { formatUsd, isDecimalString, parseUsd, UNITS_PER_USD } from '../billing/money.js';
import { MappingReader } from './mapping-reader.js';
import type { ProblemList } from './problem-list.js';
import { PRICE_KEYS, type EndpointPricing, type PriceOverride, type PriceTable } from './types.js';

export const UTC_DAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;

const CONDITION_FIELDS = ['min_prompt_tokens', 'utc_start', 'utc_end', 'utc_days'];
const PRICING_FIELDS = [...PRICE_KEYS, 'discount', 'overrides'];
const OVERRIDE_FIELDS = [...PRICE_KEYS, ...CONDITION_FIELDS];
const HHMM = /^(\d{2})(\d{2})$/;

/** An endpoint's `pricing` mapping: exact prices, discount and condition-bound overrides. */
export function readPricing(fields: MappingReader): EndpointPricing {
  const pricing = fields.mapping('pricing', PRICING_FIELDS);
  if (!pricing) return { prices: {}, discount: '0', overrides: [] };
  return {
    prices: readPriceTable(pricing),
    discount: readDiscount(pricing),
    overrides: pricing.list('overrides', true).flatMap((item) => {
      const override = readOverride(item.value, item.path, pricing.problems);
      return override ? [override] : [];
    }),
  };
}

/** Every declared price key of one mapping, as exact, non-negative units. */
function readPriceTable(fields: MappingReader): PriceTable {
  const table: PriceTable = {};
  for (const key of PRICE_KEYS) {
    if (!fields.has(key)) continue;
    const units = readDecimal(fields, key);
    if (units === null) continue;
    if (units < 0n) fields.problem(key, 'must not be negative');
    else table[key] = { text: fields.raw(key) as string, units };
  }
  return table;
}

function readDecimal(fields: MappingReader, key: string): bigint | null {
  const value = fields.raw(key);
  if (!isDecimalString(value)) {
    fields.problem(key, 'not a decimal string');
    return null;
  }
  try {
    return parseUsd(value);
  } catch (error) {
    fields.problem(key, (error as Error).message);
    return null;
  }
}

/** `discount`: fraction taken off list, below 1 (negative above list); "0" when absent. */
function readDiscount(fields: MappingReader): string {
  if (!fields.has('discount')) return '0';
  const units = readDecimal(fields, 'discount');
  if (units === null) return '0';
  if (units >= UNITS_PER_USD) {
    fields.problem('discount', 'must be below 1');
    return '0';
  }
  return formatUsd(units);
}

function readOverride(value: unknown, path: string, problems: ProblemList): PriceOverride | null {
  const fields = MappingReader.open(value, path, problems, OVERRIDE_FIELDS);
  if (!fields) return null;
  const override: PriceOverride = { prices: readPriceTable(fields) };
  if (!PRICE_KEYS.some((key) => fields.has(key))) fields.report('declares no price');
  const minPromptTokens = fields.optionalInteger('min_prompt_tokens', { min: 0 });
  if (minPromptTokens !== null) override.minPromptTokens = minPromptTokens;
  readWindow(fields, override);
  if (!CONDITION_FIELDS.some((key) => fields.has(key))) {
    fields.report('needs a condition (min_prompt_tokens, utc_start/utc_end or utc_days)');
  }
  return override;
}

function readWindow(fields: MappingReader, override: PriceOverride): void {
  const start = readClock(fields, 'utc_start');
  const end = readClock(fields, 'utc_end');
  if (fields.has('utc_start') !== fields.has('utc_end')) {
    fields.problem(fields.has('utc_start') ? 'utc_end' : 'utc_start', 'required with utc_start/utc_end');
  }
  if (start !== null) override.utcStart = start;
  if (end !== null) override.utcEnd = end;
  if (fields.has('utc_days')) override.utcDays = fields.stringList('utc_days', { allowed: UTC_DAYS });
}

/** HHMM, written as a string ("0600") or as the number YAML reads from an unquoted one (600). */
function readClock(fields: MappingReader, key: string): string | null {
  if (!fields.has(key)) return null;
  const value = fields.raw(key);
  const text = typeof value === 'number' && Number.isInteger(value) && value >= 0 ? String(value).padStart(4, '0') : value;
  const match = typeof text === 'string' ? HHMM.exec(text) : null;
  const hours = Number(match?.[1]);
  const minutes = Number(match?.[2]);
  const valid = match !== null && minutes < 60 && (hours < 24 || (hours === 24 && minutes === 0 && key === 'utc_end'));
  if (!valid) {
    fields.problem(key, 'must be a UTC time HHMM (0000 to 2359)');
    return null;
  }
  return text as string;
}
