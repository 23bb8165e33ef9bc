import type { Command } from 'commander';
import { catalogueCounts } from '../catalogue/index-builder.js';
import { loadCatalogueFile } from '../catalogue/loader.js';
import { describeMissingCredential, missingCredentials } from '../catalogue/missing-credentials.js';
import { formatProblem } from '../catalogue/problem-list.js';

interface CheckOptions {
  strict?: boolean;
}

/**
 * `switchyard catalogue check FILE [--strict]`: validates a catalogue file and prints every problem
 * with its path (exit 1). A provider whose `api_key_env` is unset here is a warning, and a problem
 * under `--strict`.
 */
export function registerCatalogueCommands(program: Command): void {
  const catalogue = program.command('catalogue').description('Catalogue file tools');
  catalogue
    .command('check')
    .description('Validate a catalogue/config YAML file; prints every problem as "path: message"')
    .argument('<file>', 'the YAML file to check')
    .option('--strict', 'also fail when a provider\'s api_key_env names an unset environment variable')
    .action(async (file: string, options: CheckOptions) => {
      const result = await loadCatalogueFile(file);
      if (!result.ok) {
        process.stdout.write(result.problems.map((problem) => `${formatProblem(problem)}\n`).join(''));
        process.exitCode = 1;
        return;
      }
      const missing = missingCredentials(result.catalogue, process.env);
      const prefix = options.strict ? '' : 'warning: ';
      process.stdout.write(missing.map((entry) => `${prefix}${entry.path}: ${describeMissingCredential(entry)}\n`).join(''));
      if (options.strict && missing.length > 0) {
        process.exitCode = 1;
        return;
      }
      const counts = catalogueCounts(result.catalogue);
      process.stdout.write(`ok: ${counts.providers} providers, ${counts.models} models, ${counts.endpoints} endpoints\n`);
    });
}
