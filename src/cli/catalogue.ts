import type { Command } from 'commander';
import { catalogueCounts } from '../catalogue/index-builder.js';
import { loadCatalogueFile } from '../catalogue/loader.js';
import { formatProblem } from '../catalogue/problem-list.js';

/** `switchyard catalogue check FILE`: validates a catalogue file and prints every problem with its path. */
export function registerCatalogueCommands(program: Command): void {
  const catalogue = program.command('catalogue').description('Catalogue file tools');
  catalogue
    .command('check')
    .description('Validate a catalogue/config YAML file; prints every problem as "path: message"')
    .argument('<file>', 'the YAML file to check')
    .action(async (file: string) => {
      const result = await loadCatalogueFile(file);
      if (result.ok) {
        const counts = catalogueCounts(result.catalogue);
        process.stdout.write(`ok: ${counts.providers} providers, ${counts.models} models, ${counts.endpoints} endpoints\n`);
        return;
      }
      process.stdout.write(result.problems.map((problem) => `${formatProblem(problem)}\n`).join(''));
      process.exitCode = 1;
    });
}
