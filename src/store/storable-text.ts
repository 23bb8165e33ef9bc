/**
 * Text both engines store alike. PostgreSQL refuses U+0000 in text (`invalid byte sequence for
 * encoding "UTF8": 0x00`) and the `\u0000` escape in jsonb, while providers and callers can send it
 * in any string (a finish reason, an upstream id, an error message, metadata, a header). It is
 * stored as U+FFFD, the replacement character, on both engines: the text keeps its length and shows
 * where something unreadable was, and a record reads back the same from either engine.
 *
 * Every statement parameter passes through storableParameters where it reaches an engine (the pg
 * pool, the SQLite statement cache); JSON columns are written with storableJsonText, since a NUL
 * inside JSON text is the escape, not the character; generation rows are made storable where they
 * are built, as the SQLite ledger inserts them with its own prepared statement.
 */

export const NUL_REPLACEMENT = '\uFFFD';

export function storableText(text: string): string {
  return text.includes('\u0000') ? text.replaceAll('\u0000', NUL_REPLACEMENT) : text;
}

/** A statement's parameters with every string storable; the same array when none needed it. */
export function storableParameters<T extends readonly unknown[]>(parameters: T): T {
  const index = parameters.findIndex((value) => typeof value === 'string' && value.includes('\u0000'));
  if (index < 0) return parameters;
  return parameters.map((value) => (typeof value === 'string' ? storableText(value) : value)) as unknown as T;
}

/** The JSON text of `value`, every string in it (object keys too) storable. */
export function storableJsonText(value: unknown): string {
  const text = JSON.stringify(value);
  return text.includes('\\u0000') ? JSON.stringify(storableJson(value)) : text;
}

function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [storableText(key), storableJson(item)]));
  }
  return value;
}

/** A row with every text column storable. */
export function storableRow<T extends Record<string, unknown>>(row: T): T {
  let copy: Record<string, unknown> | undefined;
  for (const column in row) {
    const value = row[column];
    if (typeof value !== 'string' || !value.includes('\u0000')) continue;
    copy ??= { ...row };
    copy[column] = storableText(value);
  }
  return (copy ?? row) as T;
}
