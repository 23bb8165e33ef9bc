import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** Where golden files live: `test/fixtures/golden/`. */
export const GOLDEN_ROOT = fileURLToPath(new URL('../fixtures/golden/', import.meta.url));

/** `UPDATE_GOLDEN=1` rewrites the golden files from what the code produces; review the diff before committing. */
export const UPDATING_GOLDEN = process.env.UPDATE_GOLDEN === '1';

/**
 * Compares `actual` byte for byte with the golden file at `path` (relative to the golden root),
 * or writes it there in update mode.
 */
export function expectGolden(path: string, actual: string): void {
  const file = join(GOLDEN_ROOT, path);
  if (UPDATING_GOLDEN) {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, actual);
    return;
  }
  if (!existsSync(file)) throw new Error(`no golden file ${path}: run with UPDATE_GOLDEN=1 to write it, then review it`);
  expect(actual, `golden file ${path} (UPDATE_GOLDEN=1 rewrites it)`).toBe(readFileSync(file, 'utf8'));
}

/** A value's golden JSON text: two-space indentation and a final newline, so diffs read line by line. */
export function goldenJson(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

/** Every file under a golden folder, as paths relative to the golden root. */
export function goldenFilesUnder(folder: string): string[] {
  const root = join(GOLDEN_ROOT, folder);
  if (!existsSync(root)) return [];
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(GOLDEN_ROOT, join(entry.parentPath, entry.name)))
    .sort();
}
