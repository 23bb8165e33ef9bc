/**
 * Prices of one endpoint applied to a non-conversation call. Embeddings and rerank: per prompt token
 * where the endpoint publishes a prompt price and reported a count, per request where it publishes a
 * request price, and every other measured unit (tokens without a price, search units) recorded
 * unpriced; nothing is charged for output, they produce none. Image generation: its pictures by the
 * media prices as well (`computeImageCost`). Transcription: its seconds and tokens
 * (`computeTranscriptionCost`).
 */
import type { EndpointPricing, PriceTable } from '../catalogue/types.js';
import { effectivePrices, type CostResult } from './pricing.js';
import { times, timesDecimal } from './money.js';
import type { CostLine } from './types.js';

/** Units one call consumed, as the endpoint reported them; an unreported count is undefined. */
export interface OperationUsage {
  promptTokens?: number;
  /** Rerank search units (no price key exists for them: always recorded unpriced). */
  searchUnits?: number;
}

/** The cost line key of search units; quantities under it are never priced. */
export const SEARCH_UNITS_KEY = 'search_units';

/** The exact charge of one call, with one cost line per unit measured or priced. */
export function computeOperationCost(pricing: EndpointPricing, usage: OperationUsage, now: Date): CostResult {
  const table = effectivePrices(pricing, { promptTokens: usage.promptTokens, now });
  const lines: CostLine[] = [];
  const tokens = tokenLine(table, usage.promptTokens);
  if (tokens) lines.push(tokens);
  if (table.request) lines.push({ key: 'request', quantity: '1', amount: table.request.units });
  if (usage.searchUnits !== undefined) lines.push({ key: SEARCH_UNITS_KEY, quantity: String(usage.searchUnits), amount: null });
  return { cost: lines.reduce((sum, line) => sum + (line.amount ?? 0n), 0n), lines };
}

/** What one image-generation call produced, measured or as reported. */
export interface ImageUsage {
  /** Input tokens as reported (prompt text and reference pictures). */
  promptTokens?: number;
  /** Pictures delivered. */
  images: number;
  /** Reference pictures sent with the prompt (`input_references`), priced at `image`. */
  referenceImages?: number;
  /** Exact decimal megapixels read from the pictures' bytes (pictures given only as URLs are not measured). */
  megapixels?: string;
  /** Output (image) tokens as reported. */
  outputTokens?: number;
}

/**
 * The exact charge of one image-generation call (rule 13): input tokens at `prompt`, each reference
 * picture in the prompt at `image`, each picture delivered at `image_output`, the megapixels read
 * from the bytes at `image_megapixel`, output tokens at `image_output_token`, and the request price. A measured unit without a published price is
 * recorded unpriced and charges nothing; a price with nothing measured for it charges nothing.
 */
export function computeImageCost(pricing: EndpointPricing, usage: ImageUsage, now: Date): CostResult {
  const table = effectivePrices(pricing, { promptTokens: usage.promptTokens, now });
  const lines: CostLine[] = [];
  const tokens = tokenLine(table, usage.promptTokens);
  if (tokens) lines.push(tokens);
  if (usage.referenceImages) {
    lines.push({ key: 'image', quantity: String(usage.referenceImages), amount: table.image ? times(table.image.units, usage.referenceImages) : null });
  }
  lines.push({ key: 'image_output', quantity: String(usage.images), amount: table.image_output ? times(table.image_output.units, usage.images) : null });
  if (usage.megapixels !== undefined) {
    lines.push({ key: 'image_megapixel', quantity: usage.megapixels, amount: table.image_megapixel ? timesDecimal(table.image_megapixel.units, usage.megapixels) : null });
  }
  if (usage.outputTokens !== undefined) {
    lines.push({ key: 'image_output_token', quantity: String(usage.outputTokens), amount: table.image_output_token ? times(table.image_output_token.units, usage.outputTokens) : null });
  }
  if (table.request) lines.push({ key: 'request', quantity: '1', amount: table.request.units });
  return { cost: lines.reduce((sum, line) => sum + (line.amount ?? 0n), 0n), lines };
}

/** What one transcription consumed: the recording's seconds as measured, tokens as reported. */
export interface TranscriptionUsage {
  /** Exact decimal seconds read from the recording's container. */
  seconds: string;
  /** Input tokens as reported (the recording and the prompt). */
  promptTokens?: number;
  /** Transcript tokens as reported. */
  outputTokens?: number;
}

/**
 * The exact charge of one transcription (rule 13): the seconds read from the container at
 * `audio_second`, input tokens at `prompt` and transcript tokens at `completion` where reported,
 * and the request price. The seconds are always recorded, unpriced where no price is published.
 */
export function computeTranscriptionCost(pricing: EndpointPricing, usage: TranscriptionUsage, now: Date): CostResult {
  const table = effectivePrices(pricing, { promptTokens: usage.promptTokens, now });
  const lines: CostLine[] = [{ key: 'audio_second', quantity: usage.seconds, amount: table.audio_second ? timesDecimal(table.audio_second.units, usage.seconds) : null }];
  const tokens = tokenLine(table, usage.promptTokens);
  if (tokens) lines.push(tokens);
  if (usage.outputTokens !== undefined) {
    lines.push({ key: 'completion', quantity: String(usage.outputTokens), amount: table.completion ? times(table.completion.units, usage.outputTokens) : null });
  }
  if (table.request) lines.push({ key: 'request', quantity: '1', amount: table.request.units });
  return { cost: lines.reduce((sum, line) => sum + (line.amount ?? 0n), 0n), lines };
}

/**
 * Counted tokens are charged at the prompt price, or recorded unpriced without one. Without a count
 * a published prompt price charges nothing and the line says `unmeasured`; with neither, no line.
 */
function tokenLine(table: PriceTable, promptTokens: number | undefined): CostLine | undefined {
  const price = table.prompt;
  if (promptTokens !== undefined) return { key: 'prompt', quantity: String(promptTokens), amount: price ? times(price.units, promptTokens) : null };
  return price ? { key: 'prompt', quantity: 'unmeasured', amount: 0n } : undefined;
}
