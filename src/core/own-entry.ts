/**
 * The entry `key` names in a fixed table, or undefined. Keys come from outside (a query parameter's
 * name, an upstream's stop reason), so only the table's own entries count: a plain object also
 * answers `constructor`, `toString` or `__proto__` from its prototype.
 */
export function ownEntry<T>(table: Readonly<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}
