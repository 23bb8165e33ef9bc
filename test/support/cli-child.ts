import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';

const REGISTER_TYPESCRIPT = new URL('./typescript-child/register.mjs', import.meta.url).pathname;
const CLI_PROCESS = new URL('./cli-process.ts', import.meta.url).pathname;

export interface CliOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Added to the test's own environment; a variable set to undefined is removed. */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

function spawnCli(args: string[], options: CliOptions): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'info', ...options.env };
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  return spawn(process.execPath, ['--import', REGISTER_TYPESCRIPT, CLI_PROCESS, ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
    ...(options.cwd && { cwd: options.cwd }),
  });
}

/** Runs `switchyard ARGS…` to its end. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliOutcome> {
  const child = spawnCli(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stdout, stderr })));
}

/** `switchyard serve ARGS…` running in a child process, with every stdout line it printed so far. */
export interface ServeChild {
  child: ChildProcess;
  url: string;
  lines: string[];
  /** Resolves with the first line (printed from now on or before) that `matches`. */
  lineMatching(matches: (line: string) => boolean): Promise<string>;
  stop(): Promise<void>;
}

export async function spawnServe(args: string[], options: CliOptions = {}): Promise<ServeChild> {
  const child = spawnCli(['serve', ...args], options);
  const lines: string[] = [];
  const waiters: { matches: (line: string) => boolean; resolve: (line: string) => void }[] = [];
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  if (!child.stdout) throw new Error('the serve process has no stdout');
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    for (const waiter of waiters.filter((entry) => entry.matches(line))) {
      waiters.splice(waiters.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  });
  const lineMatching = (matches: (line: string) => boolean): Promise<string> => {
    const seen = lines.find(matches);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      waiters.push({ matches, resolve });
      child.once('exit', (code, signal) => reject(new Error(`serve exited (${code ?? signal}):\n${stderr}`)));
    });
  };
  const listening = await lineMatching((line) => line.startsWith('listening on '));
  return {
    child,
    url: listening.slice('listening on '.length),
    lines,
    lineMatching,
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
