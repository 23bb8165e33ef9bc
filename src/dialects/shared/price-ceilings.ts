import { invalidRequest } from '../../core/errors.js';

type Ceilings = Partial<Record<'prompt' | 'completion' | 'request' | 'image', number | string>>;

/** `provider.max_price` as exact decimal strings; a JSON number is read through its shortest exact form. */
export function priceCeilings(body: Ceilings): Partial<Record<'prompt' | 'completion' | 'request' | 'image', string>> {
  const read: Partial<Record<'prompt' | 'completion' | 'request' | 'image', string>> = {};
  for (const key of ['prompt', 'completion', 'request', 'image'] as const) {
    const value = body[key];
    if (value === undefined) continue;
    read[key] = typeof value === 'string' ? value : numberToDecimal(value, `provider.max_price.${key}`);
  }
  return read;
}

function numberToDecimal(value: number, field: string): string {
  if (!Number.isFinite(value) || value < 0) throw invalidRequest(field, 'must be a non-negative number');
  const text = String(value);
  if (!text.includes('e')) return text;
  const [mantissa = '0', exponentText = '0'] = text.split('e');
  const exponent = Number(exponentText);
  const [whole = '0', fraction = ''] = mantissa.split('.');
  const digits = whole + fraction;
  const point = whole.length + exponent;
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  return digits.length <= point ? digits.padEnd(point, '0') : `${digits.slice(0, point)}.${digits.slice(point)}`;
}
