import type { DatabaseEngine } from '../support/database-urls.js';
import type { FuzzCase } from './fuzz-case.js';

/**
 * Defects the fuzz suite finds that are reported and being fixed. A problem one of them explains is
 * printed, not failed, so a random run stays meaningful until the fix lands; each has its own
 * deterministic test (skipped or expected to fail) in known-defects.test.ts. Remove an entry when
 * its fix lands: that test then runs and the fuzz judges such cases again.
 */
export interface KnownDefect {
  name: string;
  explains(engine: DatabaseEngine['name'], fuzz: FuzzCase, problem: string): boolean;
}

/** The request as the gateway decodes it: body text, path and query, percent-decoded where possible. */
function requestText(fuzz: FuzzCase): string {
  const body = fuzz.payload === undefined ? '' : typeof fuzz.payload === 'string' ? fuzz.payload : Buffer.from(fuzz.payload).toString('utf8');
  let path = fuzz.path;
  try {
    path = decodeURIComponent(fuzz.path);
  } catch {
    // an undecodable path is judged as sent
  }
  return `${path}\n${body}`;
}

/** U+0000 raw, or escaped in JSON text. */
function carriesNul(fuzz: FuzzCase): boolean {
  const text = requestText(fuzz);
  return text.includes('\u0000') || text.includes('\\u0000');
}

export const KNOWN_DEFECTS: KnownDefect[] = [];

export function knownDefectOf(engine: DatabaseEngine['name'], fuzz: FuzzCase, problem: string): KnownDefect | undefined {
  return KNOWN_DEFECTS.find((defect) => defect.explains(engine, fuzz, problem));
}
