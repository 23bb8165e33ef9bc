/**
 * Prices of one endpoint applied to counts: the effective price table (overrides), the credit
 * hold, the exact settlement with its cost lines, and the pricing record the catalogue shows.
 * Declared prices are the prices charged; `discount` only tells how far they sit below list.
 */
import { isTimeWindow, overrideApplies, promptConditionHolds, type PriceMoment } from '../catalogue/override-conditions.js';
import { PRICE_KEYS, type EndpointPricing, type PriceKey, type PriceOverride, type PriceTable } from '../catalogue/types.js';
import type { CoreUsage } from '../core/events.js';
import { formatUsd, maxUnits, times, timesDecimal, type Units } from './money.js';
import type { CostLine } from './types.js';

/**
 * The prices in force for a prompt of `promptTokens` at `now`: the entry's own prices, then every
 * override whose conditions all match, default-rate entries first and time windows after them,
 * the last price per key winning. With no prompt count only the entry's own prices apply.
 */
export function effectivePrices(pricing: EndpointPricing, when: PriceMoment): PriceTable {
  const matching = pricing.overrides.filter((override) => overrideApplies(override, when));
  const ordered = [...matching.filter((override) => !isTimeWindow(override)), ...matching.filter(isTimeWindow)];
  return ordered.reduce<PriceTable>((table, override) => ({ ...table, ...override.prices }), { ...pricing.prices });
}

export interface HoldCounts {
  /** Our estimate of the prompt as the endpoint receives it (messages plus tool schemas). */
  promptTokens: number;
  /** The output the hold covers: the planned ceiling or all the endpoint could emit. */
  ceilingTokens: number;
  /** When the hold is taken. The hold covers every clock window, since one may open before settlement. */
  now: Date;
  /** Input characters of a speech request, charged at `character`. */
  characters?: number;
  /** The most an image-generation call could render: its pictures, their megapixels and output tokens, and the reference pictures it sends. */
  images?: { count: number; megapixels: string; outputTokens: number; references: number };
  /** Seconds of a recording to transcribe, read from its container, at `audio_second`. */
  audioSeconds?: string;
}

/**
 * Credit to reserve: prompt × the dearest prompt-side price, ceiling × the dearest output price,
 * plus the request price. Each price is the highest any override matching the estimate could set,
 * so the hold is never below the settlement of the same counts at any time of day.
 */
export function holdAmount(pricing: EndpointPricing, counts: HoldCounts): Units {
  const table = highestPrices(pricing, counts.promptTokens);
  const perPrompt = dearest(table, ['prompt', 'input_cache_read', 'input_cache_write']);
  const perOutput = dearest(table, ['completion', 'internal_reasoning']);
  const perCharacter = table.character?.units ?? 0n;
  return times(perPrompt, counts.promptTokens) + times(perOutput, counts.ceilingTokens) + times(perCharacter, counts.characters ?? 0)
    + (table.request?.units ?? 0n) + (counts.images ? imagesHold(table, counts.images) : 0n)
    + (counts.audioSeconds !== undefined && table.audio_second ? timesDecimal(table.audio_second.units, counts.audioSeconds) : 0n);
}

/** Every picture at `image_output`, all their megapixels at `image_megapixel`, their output tokens at `image_output_token`, each reference picture at `image`. */
function imagesHold(table: PriceTable, images: NonNullable<HoldCounts['images']>): Units {
  return times(table.image_output?.units ?? 0n, images.count) + times(table.image?.units ?? 0n, images.references)
    + (table.image_megapixel ? timesDecimal(table.image_megapixel.units, images.megapixels) : 0n)
    + times(table.image_output_token?.units ?? 0n, images.outputTokens);
}

/**
 * The largest output ceiling whose hold on this endpoint fits `budget`: what remains after the
 * prompt and the request price, over the dearest output price. Null when not even an empty answer
 * fits; `Number.MAX_SAFE_INTEGER` when output is not priced (no ceiling changes the hold).
 */
export function largestCeilingWithin(pricing: EndpointPricing, counts: Omit<HoldCounts, 'ceilingTokens'>, budget: Units): number | null {
  const fixed = holdAmount(pricing, { ...counts, ceilingTokens: 0 });
  if (budget < fixed) return null;
  const perOutput = dearest(highestPrices(pricing, counts.promptTokens), ['completion', 'internal_reasoning']);
  if (perOutput === 0n) return Number.MAX_SAFE_INTEGER;
  const fitting = (budget - fixed) / perOutput;
  return fitting > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(fitting);
}

function highestPrices(pricing: EndpointPricing, promptTokens: number): PriceTable {
  const table: PriceTable = { ...pricing.prices };
  for (const override of pricing.overrides) {
    if (!promptConditionHolds(override, promptTokens)) continue;
    for (const key of PRICE_KEYS) {
      const price = override.prices[key];
      const current = table[key];
      if (price && (!current || price.units > current.units)) table[key] = price;
    }
  }
  return table;
}

function dearest(table: PriceTable, keys: readonly PriceKey[]): Units {
  return keys.reduce((max, key) => maxUnits(max, table[key]?.units ?? 0n), 0n);
}

export interface CostContext {
  /** Our estimate of the prompt (recorded beside the cost); never charged in place of a count. */
  estimatedPromptTokens: number;
  /** When the answer ended: selects clock-window overrides. */
  now: Date;
}

export interface CostResult {
  cost: Units;
  lines: CostLine[];
}

/**
 * The exact charge for reported usage. `promptTokens` counts the whole prompt, cache reads and
 * writes included. Overrides are selected with the reported prompt count; without one the entry's
 * own prices apply and the prompt line says `unmeasured`. Unreported counts charge nothing; a unit
 * with no declared price is recorded with `amount: null`.
 */
export function computeCost(pricing: EndpointPricing, usage: CoreUsage, context: CostContext): CostResult {
  const table = effectivePrices(pricing, { promptTokens: usage.promptTokens, now: context.now });
  const lines = [...promptLines(table, usage), ...completionLines(table, usage)];
  if (table.request) lines.push(line('request', 1, table.request));
  lines.push(...mediaLines(table, usage));
  const cost = lines.reduce((sum, entry) => sum + (entry.amount ?? 0n), 0n);
  return { cost, lines };
}

type Price = PriceTable[PriceKey];

function line(key: PriceKey, quantity: number, price: Price): CostLine {
  return { key, quantity: String(quantity), amount: price ? times(price.units, quantity) : null };
}

/**
 * Generated media (rule 13): megapixels read from the image bytes at `image_megapixel`, seconds read
 * from the audio container at `audio_second`, rounded up to the unit. Without a published price the
 * quantity is recorded unpriced and charges nothing.
 */
function mediaLines(table: PriceTable, usage: CoreUsage): CostLine[] {
  const lines: CostLine[] = [];
  const media: [PriceKey, string | undefined][] = [['image_megapixel', usage.imageMegapixels], ['audio_second', usage.audioSeconds]];
  for (const [key, quantity] of media) {
    if (quantity === undefined) continue;
    const price = table[key];
    lines.push({ key, quantity, amount: price ? timesDecimal(price.units, quantity) : null });
  }
  return lines;
}

function unmeasured(key: PriceKey, price: Price): CostLine {
  return { key, quantity: 'unmeasured', amount: price ? 0n : null };
}

function promptLines(table: PriceTable, usage: CoreUsage): CostLine[] {
  const cached = usage.cachedTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const lines: CostLine[] = [];
  if (usage.promptTokens === undefined) lines.push(unmeasured('prompt', table.prompt));
  else lines.push(line('prompt', Math.max(0, usage.promptTokens - cached - written), table.prompt));
  if (cached > 0) lines.push(line('input_cache_read', cached, table.input_cache_read ?? table.prompt));
  if (written > 0) lines.push(line('input_cache_write', written, table.input_cache_write ?? table.prompt));
  return lines;
}

/** Reasoning tokens are part of the completion; they are charged at `internal_reasoning` when declared. */
function completionLines(table: PriceTable, usage: CoreUsage): CostLine[] {
  const reasoning = usage.reasoningTokens ?? 0;
  const reasoningPrice = table.internal_reasoning;
  if (usage.completionTokens === undefined) {
    const lines = [unmeasured('completion', table.completion)];
    if (reasoning > 0) lines.push(line('internal_reasoning', reasoning, reasoningPrice ?? table.completion));
    return lines;
  }
  if (!reasoningPrice || reasoning === 0) return [line('completion', usage.completionTokens, table.completion)];
  const charged = Math.min(reasoning, usage.completionTokens);
  return [
    line('completion', usage.completionTokens - charged, table.completion),
    line('internal_reasoning', charged, reasoningPrice),
  ];
}

export type PriceRecord = Partial<Record<PriceKey, string>>;

/** Clock windows as the hosted marketplace's clients read them: HHMM as a number (0600 is 600). */
export interface OverrideRecord extends PriceRecord {
  min_prompt_tokens?: number;
  utc_start?: number;
  utc_end?: number;
  utc_days?: string[];
}

/**
 * The spec's pricing record: declared keys only, `discount` always (a fraction, not a price: a JSON
 * number), `overrides` when any.
 */
export type PricingRecord = PriceRecord & { discount: number; overrides?: OverrideRecord[] };

export function chargedPricesForDisplay(pricing: EndpointPricing): PricingRecord {
  const record: PricingRecord = { ...priceRecord(pricing.prices), discount: Number(pricing.discount) };
  if (pricing.overrides.length > 0) record.overrides = pricing.overrides.map(overrideRecord);
  return record;
}

function priceRecord(table: PriceTable): PriceRecord {
  const record: PriceRecord = {};
  for (const key of PRICE_KEYS) {
    const price = table[key];
    if (price) record[key] = formatUsd(price.units);
  }
  return record;
}

function overrideRecord(override: PriceOverride): OverrideRecord {
  const record: OverrideRecord = priceRecord(override.prices);
  if (override.minPromptTokens !== undefined) record.min_prompt_tokens = override.minPromptTokens;
  if (override.utcStart !== undefined) record.utc_start = Number(override.utcStart);
  if (override.utcEnd !== undefined) record.utc_end = Number(override.utcEnd);
  if (override.utcDays !== undefined) record.utc_days = [...override.utcDays];
  return record;
}
