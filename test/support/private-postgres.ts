import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chown, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';

const run = promisify(execFile);

/**
 * A PostgreSQL cluster of a test's own, in a temporary folder on a free port, for a test that stops
 * and starts its server (the shared test server is never stopped). Trust authentication, user
 * `postgres`, no fsync. As root the server's programs refuse to run, so they run as `postgres`.
 */
export interface PrivatePostgres {
  port: number;
  /** Creates database `name` and answers its URL. */
  createDatabase(name: string): Promise<string>;
  /** `pg_ctl stop -m fast`: every connection is cut and new ones are refused until `start`. */
  stop(): Promise<void>;
  /** Starts the server again on the same port and folder; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops the server (immediately) and removes its folder. */
  close(): Promise<void>;
}

/** The folder of the newest installed server's programs (Debian's layout), if any. */
function serverPrograms(): string | undefined {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).filter((name) => existsSync(join(root, name, 'bin', 'pg_ctl'))).sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], 'bin');
}

const PROGRAMS = serverPrograms();

/**
 * Whether a private cluster can be started here (initdb and pg_ctl installed). Where not, tests
 * needing one are skipped with the reason printed, except under CI=true, where they fail.
 */
export const PRIVATE_POSTGRES_AVAILABLE: boolean = (() => {
  if (PROGRAMS) return true;
  const reason = 'no initdb/pg_ctl under /usr/lib/postgresql/*/bin';
  if (process.env.CI === 'true') throw new Error(`CI=true requires a private PostgreSQL cluster for the fleet restart tests: ${reason}`);
  console.warn(`private PostgreSQL tests skipped: ${reason}`);
  return false;
})();

const AS_ROOT = userInfo().uid === 0;

/** Runs one of the server's programs, as `postgres` when this process is root. */
async function serverProgram(program: string, args: string[]): Promise<void> {
  if (!PROGRAMS) throw new Error('no PostgreSQL server programs installed');
  const path = join(PROGRAMS, program);
  const [command, commandArgs] = AS_ROOT ? ['runuser', ['-u', 'postgres', '--', path, ...args]] : [path, args];
  await run(command, commandArgs, { timeout: 60_000 });
}

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const dir = await mkdtemp(join(tmpdir(), 'switchyard-private-pg-'));
  if (AS_ROOT) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    await chown(dir, Number(stdout.trim()), Number(group.trim()));
  }
  const data = join(dir, 'data');
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
  const start = () => serverProgram('pg_ctl', ['-D', data, '-l', join(dir, 'server.log'), '-w', '-t', '60', '-o', options, 'start']);
  const stop = (mode: 'fast' | 'immediate') => serverProgram('pg_ctl', ['-D', data, '-w', '-t', '60', '-m', mode, 'stop']);
  let up = false;
  try {
    await serverProgram('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8']);
    await start();
    up = true;
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  const urlOf = (database: string) => `postgres://postgres@127.0.0.1:${port}/${database}`;
  return {
    port,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: urlOf('postgres') });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE ${name}`);
      } finally {
        await client.end();
      }
      return urlOf(name);
    },
    async stop() {
      await stop('fast');
      up = false;
    },
    async start() {
      await start();
      up = true;
    },
    async close() {
      if (up) await stop('immediate').catch(() => undefined);
      up = false;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
