/**
 * Whether a failed statement broke a UNIQUE or PRIMARY KEY constraint, on either engine
 * (SQLite's `SQLITE_CONSTRAINT_UNIQUE`/`_PRIMARYKEY`, PostgreSQL's `23505`): the loser of two
 * concurrent inserts of one value, to be answered as the caller's conflict rather than a fault.
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
