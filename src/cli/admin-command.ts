import { CommanderError, Option, type Command } from 'commander';
import { isDecimalString } from '../billing/money.js';
import { DEFAULT_DATABASE_URL } from '../store/database-url.js';
import { openStore, type Store } from '../store/store.js';

/** The raw key is printed once: the database keeps only its hash. */
export const SHOWN_ONCE = 'The key is shown only once: store it now.';

/** A command's parsed options, as commander hands them over. */
export type Options = Record<string, unknown>;

/** Adds `--database` (env `SWITCHYARD_DATABASE_URL`), which every admin command takes. */
export function withDatabase(command: Command): Command {
  return command.addOption(
    new Option('--database <url>', 'sqlite:PATH or postgres://…')
      .env('SWITCHYARD_DATABASE_URL')
      .default(DEFAULT_DATABASE_URL),
  );
}

/** The CommanderError code of a failed admin command (exit 1), as opposed to a usage error (exit 2). */
export const ADMIN_FAILURE = 'switchyard.admin';
const ADMIN_FAILURE_EXIT_CODE = 1;

/**
 * Opens the database (migrating it), runs the work and always closes it, then prints the output.
 * Any failure — a refused input, an unknown id, an unreachable database — is printed as
 * `error: …` (without the usage text) and ends the command with exit code 1, never a stack trace.
 */
export function run(work: (store: Store, options: Options) => Promise<string>) {
  return async (options: Options, command: Command): Promise<void> => {
    let output: string;
    try {
      const store = await openStore(text(options, 'database'));
      try {
        output = await work(store, options);
      } finally {
        await store.close();
      }
    } catch (error) {
      const message = `error: ${error instanceof Error ? error.message : String(error)}`;
      const output = command.configureOutput();
      (output.writeErr ?? ((line: string) => process.stderr.write(line)))(`${message}\n`);
      throw new CommanderError(ADMIN_FAILURE_EXIT_CODE, ADMIN_FAILURE, message);
    }
    process.stdout.write(`${output}\n`);
  };
}

/** A string option's value; a missing one is refused naming the flag. */
export function text(options: Options, name: string): string {
  const value = options[name];
  if (typeof value !== 'string') throw new Error(`missing --${name}`);
  return value;
}

/** A USD decimal string option, refused unless it is a plain non-negative decimal. */
export function usdOption(options: Options, name: string, allowZero: boolean): string | undefined {
  const value = options[name];
  if (value === undefined) return undefined;
  const flag = `--${name}`;
  if (!isDecimalString(value) || value.startsWith('-')) {
    throw new Error(`${flag} must be a decimal USD amount such as 10 or 0.50, got ${JSON.stringify(value)}`);
  }
  if (!allowZero && /^[0.]+$/.test(value)) throw new Error(`${flag} must be more than zero`);
  const fraction = value.split('.')[1]?.replace(/0+$/, '') ?? '';
  if (fraction.length > 24) throw new Error(`${flag} has more than 24 decimal places`);
  return value;
}

/**
 * Runs an account change whose RangeErrors start with the field's name (`email: …`) and reports
 * them under the flag that carried the field (`--email: …`); other errors pass unchanged.
 */
export async function namingFlags<T>(flags: Readonly<Record<string, string>>, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    const field = /^([a-z_]+): /.exec(error.message)?.[1];
    const flag = field !== undefined && Object.hasOwn(flags, field) ? flags[field] : undefined;
    throw new Error(flag === undefined ? error.message : `${flag}: ${error.message.slice((field?.length ?? 0) + 2)}`);
  }
}
