import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { vi } from 'vitest';
import { registerAdminCommands } from '../../../src/cli/admin.js';
import { openStore, type Store } from '../../../src/store/store.js';

/** What one `switchyard admin …` printed and how it ended. */
export interface Outcome {
  stdout: string;
  stderr: string;
  exitCode: number;
}

/** A fresh SQLite file for one test, and `admin …` run in-process against it. */
export interface AdminDatabase {
  url: string;
  admin(...args: string[]): Promise<Outcome>;
  /** Opens the database for a look at what the commands wrote; closed after `read`. */
  read<T>(read: (store: Store) => Promise<T>): Promise<T>;
  /** `admin account create --json` of an account with 25 USD. */
  newAccount(name?: string): Promise<{ account_id: string; workspace_id: string; key: string; key_id: string }>;
  remove(): void;
}

export function adminDatabase(): AdminDatabase {
  const dir = mkdtempSync(join(tmpdir(), 'switchyard-admin-'));
  const url = `sqlite:${join(dir, 'data', 'switchyard.db')}`;
  const admin = (...args: string[]) => runAdmin(url, args);
  return {
    url,
    admin,
    async read(read) {
      const store = await openStore(url);
      try {
        return await read(store);
      } finally {
        await store.close();
      }
    },
    async newAccount(name = 'Ada') {
      const created = await admin('account', 'create', '--name', name, '--credits', '25', '--json');
      return JSON.parse(created.stdout) as { account_id: string; workspace_id: string; key: string; key_id: string };
    },
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/** Runs `switchyard admin ARGS… --database URL` in this process, as the binary would parse it. */
async function runAdmin(database: string, args: string[]): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const program = new Command().exitOverride().configureOutput({
    writeOut: (text) => { stdout += text; },
    writeErr: (text) => { stderr += text; },
  });
  registerAdminCommands(program);
  const write = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    stdout += String(chunk);
    return true;
  });
  try {
    await program.parseAsync(['admin', ...args, '--database', database], { from: 'user' });
    return { stdout, stderr, exitCode: 0 };
  } catch (error) {
    if (error instanceof CommanderError) return { stdout, stderr, exitCode: error.exitCode };
    throw error;
  } finally {
    write.mockRestore();
  }
}
