import { Command } from 'commander';
import { registerServeCommand } from './serve.js';
import { registerAdminCommands } from './admin.js';
import { registerSimCommand } from './sim.js';
import { registerCatalogueCommands } from './catalogue.js';

export async function main(argv: string[]): Promise<void> {
  const program = new Command()
    .name('switchyard')
    .description('Self-hostable LLM marketplace gateway')
    .showHelpAfterError();
  registerServeCommand(program);
  registerAdminCommands(program);
  registerSimCommand(program);
  registerCatalogueCommands(program);
  await program.parseAsync(argv);
}
