import type { Command } from 'commander';
import { registerAccountCommands } from './admin-accounts.js';
import { registerKeyCommands } from './admin-keys.js';
import { registerPeopleCommands } from './admin-people.js';
import { registerWorkspaceCommands } from './admin-workspaces.js';

/**
 * `switchyard admin …`: accounts, credits, keys, people, workspaces and spend limits, straight
 * against the database. Every change is audited with the CLI as its actor.
 */
export function registerAdminCommands(program: Command): void {
  const admin = program.command('admin').description('operator commands against the database');
  registerAccountCommands(admin);
  registerKeyCommands(admin);
  registerPeopleCommands(admin);
  registerWorkspaceCommands(admin);
}
