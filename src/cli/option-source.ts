import type { Command } from 'commander';
import { StartupError } from '../runtime/startup-error.js';

/** The environment variable each flag falls back to. */
const FLAG_VARIABLES: Record<string, string> = {
  '--config': 'SWITCHYARD_CONFIG',
  '--port': 'PORT',
  '--database': 'SWITCHYARD_DATABASE_URL',
  '--key-store': 'SWITCHYARD_KEY_STORE_URL',
  '--redis': 'SWITCHYARD_REDIS_URL',
};

/** A start-up problem with a flag's value that came from the environment names the variable instead. */
export function renamedForSource(error: unknown, command: Command): unknown {
  if (!(error instanceof StartupError)) return error;
  const variable = FLAG_VARIABLES[error.option];
  // commander keeps `--key-store` under `keyStore`
  const key = error.option.slice(2).replace(/-([a-z])/g, (_match, letter: string) => letter.toUpperCase());
  return variable !== undefined && command.getOptionValueSource(key) === 'env' ? error.renamed(variable) : error;
}
