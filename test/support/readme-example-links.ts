import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';

/**
 * The links between the README and the pages under docs/: every relative link must name a file of
 * the repository and, with a `#fragment`, a heading of that Markdown file, as GitHub renders it.
 */

const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const HEADING = /^#{1,6}\s+(.*?)\s*#*\s*$/;
/** `[text](target)` and `![alt](target)`, the target up to the first space or closing parenthesis. */
const LINK = /!?\[[^\]]*\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g;

/** The README, then every Markdown file under docs/, in the order of their paths, from the repository root. */
export function documentationFiles(root: string): string[] {
  const pages = readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.md'))
    .map((path) => join('docs', path))
    .sort();
  return ['README.md', ...pages];
}

/** The lines of `markdown` outside fenced blocks, each with its 1-based number. */
function proseLines(markdown: string): { text: string; line: number }[] {
  const lines: { text: string; line: number }[] = [];
  let fence: string | null = null;
  markdown.split('\n').forEach((text, index) => {
    const opening = FENCE.exec(text);
    if (fence === null && opening) fence = opening[1] ?? '```';
    else if (fence !== null && text.trim().startsWith(fence) && text.trim().replaceAll(fence[0] ?? '`', '') === '') fence = null;
    else if (fence === null) lines.push({ text, line: index + 1 });
  });
  return lines;
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingAnchor(heading: string): string {
  const text = heading.replace(/`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
  return text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** Every anchor of `markdown`'s headings; a repeated heading gets `-1`, `-2`, … as on GitHub. */
export function headingAnchors(markdown: string): Set<string> {
  const anchors = new Set<string>();
  for (const { text } of proseLines(markdown)) {
    const heading = HEADING.exec(text)?.[1];
    if (heading === undefined) continue;
    const base = headingAnchor(heading);
    let anchor = base;
    for (let repeat = 1; anchors.has(anchor); repeat += 1) anchor = `${base}-${repeat}`;
    anchors.add(anchor);
  }
  return anchors;
}

export interface BrokenLink {
  file: string;
  line: number;
  target: string;
  problem: string;
  /** The file the link names, when that file does not exist. */
  missing?: string;
}

/** The relative links of `file` (a path from `root`) whose file or heading does not exist. */
export function brokenLinks(root: string, file: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const markdown = readFileSync(join(root, file), 'utf8');
  for (const { text, line } of proseLines(markdown)) {
    for (const match of text.matchAll(LINK)) {
      const target = match[1] ?? '';
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [path = '', fragment] = target.split('#');
      const named = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (named.startsWith('..') || !existsSync(join(root, named))) {
        broken.push({ file, line, target, problem: `${named} does not exist`, missing: named });
        continue;
      }
      const problem = headingProblem(root, named, fragment);
      if (problem) broken.push({ file, line, target, problem });
    }
  }
  return broken;
}

function headingProblem(root: string, named: string, fragment: string | undefined): string | null {
  if (fragment === undefined || fragment === '') return null;
  if (!named.endsWith('.md')) return `${named} is not a Markdown file, so it has no #${fragment}`;
  return headingAnchors(readFileSync(join(root, named), 'utf8')).has(fragment) ? null : `${named} has no heading #${fragment}`;
}
