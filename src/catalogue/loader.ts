import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { validateCatalogue, type CatalogueResult } from './catalogue-schema.js';

export type { CatalogueResult } from './catalogue-schema.js';

/**
 * Parses catalogue YAML text and validates it. YAML syntax errors are reported with `origin`
 * (usually the file name) and their line and column as the path.
 */
export function parseCatalogueText(text: string, origin: string, loadedAt: number = Date.now()): CatalogueResult {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0) {
    return {
      ok: false,
      problems: document.errors.map((error) => {
        const position = error.linePos?.[0];
        const where = position ? `${origin}:${position.line}:${position.col}` : origin;
        return { path: where, message: firstLine(error.message) };
      }),
    };
  }
  const parsed: unknown = document.toJS({ maxAliasCount: 1000 });
  if (parsed === null || parsed === undefined) {
    return { ok: false, problems: [{ path: origin, message: 'the file is empty (expected providers and models)' }] };
  }
  return validateCatalogue(parsed, loadedAt);
}

/** Reads and validates a catalogue file; an unreadable file is one problem naming the file. */
export async function loadCatalogueFile(path: string): Promise<CatalogueResult> {
  return (await readCatalogueFile(path)).result;
}

/** The same, with the text read (null when the file could not be read). */
export async function readCatalogueFile(path: string): Promise<{ text: string | null; result: CatalogueResult }> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    const message = `cannot read the file (${(error as NodeJS.ErrnoException).code ?? String(error)})`;
    return { text: null, result: { ok: false, problems: [{ path, message }] } };
  }
  return { text, result: parseCatalogueText(text, path) };
}

function firstLine(message: string): string {
  return (message.split('\n')[0] ?? message).replace(/:\s*$/, '');
}
