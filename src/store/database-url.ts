export type Engine = 'sqlite' | 'postgres';

export type DatabaseLocation =
  | { engine: 'sqlite'; /** A file path, or `:memory:`. */ path: string }
  | { engine: 'postgres'; url: string };

export const DEFAULT_DATABASE_URL = 'sqlite:./data/switchyard.db';

/**
 * Reads a `--database` value: `sqlite:PATH` (also `sqlite://PATH`), `sqlite::memory:`, or a
 * `postgres://` / `postgresql://` URL. Anything else is refused with a message naming the forms.
 */
export function parseDatabaseUrl(url: string): DatabaseLocation {
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    return { engine: 'postgres', url };
  }
  if (url.startsWith('sqlite:')) {
    const rest = url.slice('sqlite:'.length);
    const path = rest.startsWith('//') ? rest.slice(2) : rest;
    if (path === '') throw new Error(`database URL ${JSON.stringify(url)} names no file`);
    return { engine: 'sqlite', path };
  }
  throw new Error(
    `unsupported database URL ${JSON.stringify(url)}: use sqlite:PATH, sqlite::memory: or postgres://…`,
  );
}
