/**
 * The fenced blocks of a Markdown file (the README, or a page under docs/), each classified by how a
 * test runs it. The convention (documented for writers at the top of test/e2e/readme-examples.test.ts):
 *
 * - `sh`, `bash`, `shell`: run through bash against the demo gateway;
 * - `ts`, `js`: run as an ES module;
 * - `yaml`: a whole catalogue, which must pass the catalogue check;
 * - `json`: must parse as JSON (a request or reply shown, not sent);
 * - `jsonc`, `toml`, `text`: shown, not run;
 * - any other info string, or none, is an error: say what the block is.
 *
 * An HTML comment on the line before the fence changes that: `<!-- example: skip — why -->` keeps a
 * block from running (the reason is required), `<!-- example: endpoint -->` checks a `yaml` block
 * as the endpoint list of a model in an otherwise complete catalogue, and `<!-- example: settings -->`
 * checks a `yaml` block holding a `settings:` block as the settings of such a catalogue.
 */

export type ExampleKind = 'shell' | 'module' | 'catalogue' | 'endpoint' | 'settings' | 'json' | 'shown' | 'skip' | 'unknown';

export interface ReadmeExample {
  /** The Markdown file holding it, from the repository root (`README.md`, `docs/routing.md`). */
  file: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The nearest heading above the block. */
  heading: string;
  /** The first word of the info string, lower-cased ('' when there is none). */
  language: string;
  kind: ExampleKind;
  code: string;
  /** Why a block is skipped, or what is wrong with its marking. */
  note?: string;
}

const KIND_BY_LANGUAGE: Readonly<Record<string, ExampleKind>> = {
  sh: 'shell',
  bash: 'shell',
  shell: 'shell',
  ts: 'module',
  js: 'module',
  yaml: 'catalogue',
  json: 'json',
  jsonc: 'shown',
  toml: 'shown',
  text: 'shown',
};

const FENCE = /^ {0,3}(`{3,}|~{3,})\s*([^`\s]*)[^`]*$/;
const MARKER = /^<!--\s*example:\s*([a-z]+)\s*(?:[—–:-]\s*)?(.*?)\s*-->$/;
const HEADING = /^#{1,6}\s+(.*)$/;

/** Every fenced block of `markdown` (the text of `file`), in order, with the kind its language and marker give it. */
export function readmeExamples(markdown: string, file = 'README.md'): ReadmeExample[] {
  const lines = markdown.split('\n');
  const examples: ReadmeExample[] = [];
  let heading = '';
  let previous = '';
  for (let index = 0; index < lines.length; index += 1) {
    const text = lines[index] ?? '';
    const fence = FENCE.exec(text);
    if (!fence) {
      heading = HEADING.exec(text)?.[1] ?? heading;
      if (text.trim() !== '') previous = text.trim();
      continue;
    }
    const close = closingLine(lines, index + 1, fence[1] ?? '```');
    const language = (fence[2] ?? '').toLowerCase();
    const code = lines.slice(index + 1, close).join('\n');
    examples.push({ file, line: index + 1, heading, language, code, ...classify(language, MARKER.exec(previous)) });
    index = close;
    previous = '';
  }
  return examples;
}

function closingLine(lines: string[], from: number, opening: string): number {
  for (let index = from; index < lines.length; index += 1) {
    const text = (lines[index] ?? '').trim();
    if (text.startsWith(opening) && text.replaceAll(opening[0] ?? '`', '') === '') return index;
  }
  return lines.length;
}

function classify(language: string, marker: RegExpExecArray | null): { kind: ExampleKind; note?: string } {
  if (marker) {
    const [, word, reason] = marker;
    if (word === 'skip') return reason ? { kind: 'skip', note: reason } : { kind: 'unknown', note: 'a skipped example says why: <!-- example: skip — why -->' };
    if (word === 'endpoint' && language === 'yaml') return { kind: 'endpoint' };
    if (word === 'settings' && language === 'yaml') return { kind: 'settings' };
    return { kind: 'unknown', note: `unknown marker "example: ${word ?? ''}" for a ${language || 'plain'} block` };
  }
  const kind = KIND_BY_LANGUAGE[language];
  if (kind) return { kind };
  return { kind: 'unknown', note: `${language ? `the language "${language}" is` : 'a block without a language is'} neither run nor shown: use one of ${Object.keys(KIND_BY_LANGUAGE).join(', ')}, or mark it` };
}
