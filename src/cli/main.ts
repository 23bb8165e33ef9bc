import { Command, CommanderError } from 'commander';
import { StartupError } from '../runtime/startup-error.js';
import { registerServeCommand } from './serve.js';
import { registerAdminCommands } from './admin.js';
import { registerSimCommand } from './sim.js';
import { registerCatalogueCommands } from './catalogue.js';
import { registerProbeCommand } from './probe.js';

/** Exit codes: 0 done; 1 the command failed (e.g. `catalogue check` found problems); 2 bad usage or start-up. */
export const EXIT_FAILURE = 1;
export const EXIT_USAGE = 2;

export async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name('switchyard')
    .description('Self-hostable LLM marketplace gateway')
    .showHelpAfterError()
    .exitOverride();
  registerServeCommand(program);
  registerAdminCommands(program);
  registerSimCommand(program);
  registerCatalogueCommands(program);
  registerProbeCommand(program);
  await program.parseAsync(argv);
}

/**
 * Runs the command line and ends the process the way it failed, if it did: a start-up problem is
 * one line on stderr (no stack) and exit 2, as is a usage error (commander has printed it); a
 * command that printed its own failure (`admin …`: `error: …`) exits with its code, 1.
 */
export async function run(argv: string[]): Promise<void> {
  try {
    await main(argv);
  } catch (error) {
    if (error instanceof CommanderError) process.exit(error.exitCode === 0 ? 0 : error.code.startsWith('commander.') ? EXIT_USAGE : error.exitCode);
    if (error instanceof StartupError) {
      process.stderr.write(`${error.message}\n`);
      process.exit(EXIT_USAGE);
    }
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(EXIT_FAILURE);
  }
}
