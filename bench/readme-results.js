/** Keeps the latest results in bench/README.md, each kind between two marker comments of its own. */
import { readFile, writeFile } from 'node:fs/promises';

const README = new URL('README.md', import.meta.url);

/**
 * Replaces one results section of bench/README.md with `report`, keeping everything around it;
 * appends the section under `heading` when its markers are missing.
 * @param {string} report Markdown
 * @param {{ name?: string, heading?: string }} [section] the markers' name (`bench-results`) and the heading of a new section
 */
export async function writeReadmeResults(report, section = {}) {
  const name = section.name ?? 'bench-results';
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const current = await readFile(README, 'utf8').catch(() => '# Benchmarks\n');
  const block = `${start}\n${report}\n${end}`;
  const from = current.indexOf(start);
  const to = current.indexOf(end);
  const next = from >= 0 && to > from
    ? current.slice(0, from) + block + current.slice(to + end.length)
    : `${current.trimEnd()}\n\n## ${section.heading ?? 'Latest results'}\n\n${block}\n`;
  await writeFile(README, next);
}
