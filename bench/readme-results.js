/** Keeps the latest results in bench/README.md, between two marker comments. */
import { readFile, writeFile } from 'node:fs/promises';

const START = '<!-- bench-results:start -->';
const END = '<!-- bench-results:end -->';
const README = new URL('README.md', import.meta.url);

/**
 * Replaces the results section of bench/README.md with `report`, keeping everything around it;
 * appends the section when the markers are missing.
 * @param {string} report Markdown
 */
export async function writeReadmeResults(report) {
  const current = await readFile(README, 'utf8').catch(() => '# Benchmarks\n');
  const section = `${START}\n${report}\n${END}`;
  const from = current.indexOf(START);
  const to = current.indexOf(END);
  const next = from >= 0 && to > from
    ? current.slice(0, from) + section + current.slice(to + END.length)
    : `${current.trimEnd()}\n\n## Latest results\n\n${section}\n`;
  await writeFile(README, next);
}
